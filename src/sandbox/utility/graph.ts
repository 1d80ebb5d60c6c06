/**
 * The Graph side of utility messages (Messenger Platform, "Send a utility message"; docs/utility-messages.md):
 * - `GET /message_template_library`: the network's pre-approved utility templates (search, language, topic,
 *   usecase, industry, name);
 * - `GET|POST|DELETE /{page-id}/message_templates`: the page's templates; a clone of a library template
 *   (`library_template_name`) is approved at once, a template the page writes (`components`) is reviewed and
 *   approved or rejected within seconds, its status sent on the `message_template_status_update` webhook field;
 * - `POST /{template-id}`: an edit of the body, reviewed again;
 * - the send: `POST /{page-id}/messages` with `messaging_type: UTILITY` and `message.template` (graph-send.ts
 *   hands it to `sendUtility`), which works outside the 24-hour window.
 * Every call needs a page token with `page_utility_messaging` (the library, any token).
 */
import type { FastifyInstance } from 'fastify'
import { authenticate, authenticatePage, type SandboxContext } from '../context.ts'
import { errors, SandboxGraphError } from '../graph-error.ts'
import { jsonField } from '../fields.ts'
import { graphParams } from '../params.ts'
import { encodeCursor } from '../paging.ts'
import type { TokenInfo } from '../state/tokens.ts'
import { searchLibrary, type LibraryTemplate } from './library.ts'
import { isPromotional, PROMOTIONAL_REASON, type PageTemplate } from './state.ts'

type Json = Record<string, unknown>

export const PAGE_UTILITY_MESSAGING = 'page_utility_messaging'
const NAME = /^[a-z0-9_]{1,512}$/
const BODY_MAX = 1024
const PARAM_MAX = 200
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/

export const utilityErrors = {
  needsPermission: () =>
    new SandboxGraphError(`(#200) Requires ${PAGE_UTILITY_MESSAGING} permission to manage the object`, 200),
  exists: (name: string, language: string) =>
    new SandboxGraphError(
      `(#100) Message template "${name}" already exists in language ${language}`,
      100,
      2388024,
    ),
  /** The send names a template the page does not have in that language. */
  notFound: (name: string, language: string) =>
    new SandboxGraphError(
      `(#132001) Template name does not exist in the translation: ${name} (${language})`,
      132001,
    ),
  /** The template is still in review, or was rejected. */
  notApproved: (name: string, status: string) =>
    new SandboxGraphError(`(#132001) Template ${name} is not approved (status ${status})`, 132001, 2494073),
  params: (expected: number, given: number) =>
    new SandboxGraphError(
      `(#132000) Number of parameters does not match the expected number of params: expected ${expected}, got ${given}`,
      132000,
    ),
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined
}

function requireUtility(info: TokenInfo): void {
  if (!info.granted.includes(PAGE_UTILITY_MESSAGING)) throw utilityErrors.needsPermission()
}

/** A JSON value given as JSON or as a JSON string (form posts). */
function jsonValue(v: unknown): unknown {
  if (typeof v !== 'string') return v
  try {
    return JSON.parse(v) as unknown
  } catch {
    return undefined
  }
}

function placeholderCount(body: string): number {
  let max = 0
  for (const m of body.matchAll(/\{\{(\d+)\}\}/g)) max = Math.max(max, Number(m[1]))
  return max
}

/** The body and examples of a `components` list; refuses what the network refuses. */
function bodyOf(componentsRaw: unknown): { body: string; examples: string[] } {
  const components = jsonValue(componentsRaw)
  if (!Array.isArray(components)) throw errors.invalidParam('Param components must be an array')
  const body = components.map(jsonField).find((c) => c?.type === 'BODY' || c?.type === 'body')
  if (!body || typeof body.text !== 'string' || !body.text.trim())
    throw errors.invalidParam('Param components must have a BODY component with text')
  if (body.text.length > BODY_MAX)
    throw errors.invalidParam(`Length of param components[BODY][text] must be at most ${BODY_MAX}`)
  const numbers = new Set([...body.text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))
  const count = placeholderCount(body.text)
  if (numbers.size !== count)
    throw errors.invalidParam('Placeholders of components[BODY][text] must be {{1}}, {{2}}, … without a gap')
  const example = jsonField(body.example)
  const rows = Array.isArray(example?.body_text) ? (example.body_text as unknown[]) : []
  const examples = Array.isArray(rows[0]) ? (rows[0] as unknown[]).filter((v) => typeof v === 'string') : []
  if (count > 0 && examples.length !== count)
    throw errors.invalidParam(
      `Param components[BODY][example][body_text] must give ${count} sample values, one per placeholder`,
    )
  return { body: body.text, examples: examples as string[] }
}

/** A page template as the network answers it. */
export function templateNode(t: PageTemplate): Json {
  return {
    id: t.id,
    name: t.name,
    language: t.language,
    status: t.status,
    category: t.category,
    rejected_reason: t.rejectedReason,
    ...(t.libraryTemplateName ? { library_template_name: t.libraryTemplateName } : {}),
    components: [
      {
        type: 'BODY',
        text: t.body,
        ...(t.examples.length ? { example: { body_text: [t.examples] } } : {}),
      },
    ],
  }
}

/** Tells the page's webhook the template's status (`message_template_status_update`). */
function announce(ctx: SandboxContext, t: PageTemplate): void {
  ctx.webhooks.templateStatus(t.pageId, {
    event: t.status,
    message_template_id: Number(t.id),
    message_template_name: t.name,
    message_template_language: t.language,
    message_template_category: t.category,
    reason: t.rejectedReason,
  })
}

/** The review of a page-written template: within seconds, approved, or rejected when it reads as a promotion. */
function review(ctx: SandboxContext, t: PageTemplate): void {
  if (t.review) clearTimeout(t.review)
  t.status = 'PENDING'
  t.rejectedReason = 'NONE'
  t.review = setTimeout(() => {
    t.review = undefined
    if (ctx.utility.templates.get(t.id) !== t) return
    const promotional = isPromotional(t.body) || t.examples.some(isPromotional)
    t.status = promotional ? 'REJECTED' : 'APPROVED'
    t.rejectedReason = promotional ? PROMOTIONAL_REASON : 'NONE'
    announce(ctx, t)
  }, ctx.options.utilityReviewMs ?? 1_500)
  t.review.unref()
}

function libraryNode(t: LibraryTemplate): Json {
  return { ...t }
}

export function registerUtilityGraph(app: FastifyInstance, ctx: SandboxContext): void {
  const u = () => ctx.utility

  app.get('/graph/:version/message_template_library', async (request) => {
    authenticate(ctx, request)
    const q = graphParams(request)
    const found = searchLibrary({
      search: str(q.search),
      language: str(q.language),
      topic: str(q.topic),
      usecase: str(q.usecase),
      industry: str(q.industry),
      name: str(q.name),
    })
    return {
      data: found.map(libraryNode),
      ...(found.length
        ? {
            paging: {
              cursors: { before: encodeCursor(found[0]!.id), after: encodeCursor(found.at(-1)!.id) },
            },
          }
        : {}),
    }
  })

  app.get('/graph/:version/:id/message_templates', async (request) => {
    const { id } = request.params as { id: string }
    const { info, pageId } = authenticatePage(ctx, request, id)
    requireUtility(info)
    const q = graphParams(request)
    const needle = str(q.name_or_content)?.toLowerCase()
    const list = u()
      .ofPage(pageId)
      .filter(
        (t) =>
          (!str(q.name) || t.name === q.name) &&
          (!str(q.language) || t.language === q.language) &&
          (!str(q.status) || t.status === q.status) &&
          (!str(q.category) || t.category === q.category) &&
          (!needle || t.name.includes(needle) || t.body.toLowerCase().includes(needle)),
      )
    return {
      data: list.map(templateNode),
      ...(list.length
        ? { paging: { cursors: { before: encodeCursor(list[0]!.id), after: encodeCursor(list.at(-1)!.id) } } }
        : {}),
    }
  })

  app.post('/graph/:version/:id/message_templates', async (request) => {
    const { id } = request.params as { id: string }
    const { info, pageId } = authenticatePage(ctx, request, id)
    requireUtility(info)
    const p = graphParams(request)
    const name = str(p.name)
    const language = str(p.language)
    if (!name || !NAME.test(name))
      throw errors.invalidParam('Param name must be lowercase letters, digits and underscores')
    if (!language || !LANGUAGE.test(language))
      throw errors.invalidParam('Param language must be a language code')
    if (p.category !== 'UTILITY' && p.category !== 'utility')
      throw errors.invalidParam('Param category must be UTILITY')
    if (u().find(pageId, name, language)) throw utilityErrors.exists(name, language)

    const libraryName = str(p.library_template_name)
    if (libraryName) {
      const source = searchLibrary({ name: libraryName, language })[0]
      if (!source)
        throw errors.invalidParam(`Library template ${libraryName} does not exist in language ${language}`)
      const t: PageTemplate = {
        id: u().nextId(),
        pageId,
        name,
        language,
        category: 'UTILITY',
        status: 'APPROVED',
        rejectedReason: 'NONE',
        body: source.body,
        examples: source.body_params,
        libraryTemplateName: libraryName,
      }
      u().templates.set(t.id, t)
      announce(ctx, t)
      return { id: t.id, status: t.status, category: t.category }
    }

    const { body, examples } = bodyOf(p.components)
    const t: PageTemplate = {
      id: u().nextId(),
      pageId,
      name,
      language,
      category: 'UTILITY',
      status: 'PENDING',
      rejectedReason: 'NONE',
      body,
      examples,
    }
    u().templates.set(t.id, t)
    review(ctx, t)
    return { id: t.id, status: t.status, category: t.category }
  })

  /** An edit of a page template's body: it is reviewed again (a library clone cannot be edited). */
  app.post('/graph/:version/:id', async (request) => {
    const { id } = request.params as { id: string }
    const { info } = authenticate(ctx, request)
    const t = u().templates.get(id)
    if (!t || info.kind !== 'page' || info.pageId !== t.pageId) throw errors.unknownObject(id)
    requireUtility(info)
    if (t.libraryTemplateName)
      throw errors.invalidParam('A template cloned from the template library cannot be edited')
    const { body, examples } = bodyOf(graphParams(request).components)
    t.body = body
    t.examples = examples
    review(ctx, t)
    return { success: true }
  })

  app.delete('/graph/:version/:id/message_templates', async (request) => {
    const { id } = request.params as { id: string }
    const { info, pageId } = authenticatePage(ctx, request, id)
    requireUtility(info)
    const p = graphParams(request)
    const name = str(p.name)
    if (!name) throw errors.invalidParam('The parameter name is required')
    const hsm = str(p.hsm_id)
    const gone = u()
      .ofPage(pageId)
      .filter((t) => t.name === name && (!hsm || t.id === hsm))
    if (!gone.length) throw errors.invalidParam(`Message template ${name} does not exist`)
    for (const t of gone) {
      if (t.review) clearTimeout(t.review)
      u().templates.delete(t.id)
    }
    return { success: true }
  })
}

/** The template of a Send API `message`, when it is a utility message (`message.template` with a name). */
export function utilityTemplateOf(message: Json): Json | undefined {
  const t = jsonField(message.template)
  return t && typeof t.name === 'string' ? t : undefined
}

/**
 * Sends a utility message (authentication and faults done by the caller): the page's approved template in
 * its language, the body parameters in order. Allowed outside the 24-hour window; a blocked customer or one
 * who cannot be messaged is refused as any send is. The conversation shows the filled body.
 */
export function sendUtility(
  ctx: SandboxContext,
  info: TokenInfo,
  pageId: string,
  recipientId: string,
  messagingType: string,
  message: Json,
  template: Json,
): { recipient_id: string; message_id: string } {
  requireUtility(info)
  if (messagingType !== 'UTILITY')
    throw errors.invalidParam('Param messaging_type must be UTILITY for a message template')
  if (typeof message.text === 'string' || message.attachment !== undefined)
    throw errors.invalidParam('Only one of text, attachment or template may be set')
  const name = template.name as string
  const language = str(jsonField(template.language)?.code) ?? str(template.language)
  if (!language) throw errors.invalidParam('Param message[template][language][code] is required')
  const t = ctx.utility.find(pageId, name, language)
  if (!t) throw utilityErrors.notFound(name, language)
  if (t.status !== 'APPROVED') throw utilityErrors.notApproved(name, t.status)

  const components = Array.isArray(template.components) ? template.components.map(jsonField) : []
  const body = components.find((c) => c?.type === 'body' || c?.type === 'BODY')
  const raw = Array.isArray(body?.parameters) ? (body.parameters as unknown[]).map(jsonField) : []
  const params: string[] = []
  for (const [i, p] of raw.entries()) {
    if (p?.type !== 'text' || typeof p.text !== 'string' || !p.text.trim())
      throw errors.invalidParam(`Param message[template][components][body][parameters][${i}] must be text`)
    if (p.text.length > PARAM_MAX)
      throw errors.invalidParam(
        `Length of param message[template][components][body][parameters][${i}][text] must be at most ${PARAM_MAX}`,
      )
    params.push(p.text)
  }
  const expected = placeholderCount(t.body)
  if (params.length !== expected) throw utilityErrors.params(expected, params.length)

  const conv = ctx.store.conversationWith(pageId, recipientId)
  if (!conv) throw errors.noMatchingUser()
  if (conv.blocked) throw errors.blocked()
  if (!conv.canReply) throw errors.cannotReply()

  const now = Date.now()
  const text = t.body.replace(/\{\{(\d+)\}\}/g, (_w, n: string) => params[Number(n) - 1]!)
  const stored = ctx.store.addMessage(conv, { createdMs: now, fromPage: true, text })
  ctx.webhooks.pageSent(pageId, recipientId, stored, ctx.options.appId)
  const at = new Date(now).toISOString()
  ctx.utility.sends.push({
    page_id: pageId,
    recipient_id: recipientId,
    template_name: name,
    language,
    parameters: params,
    text,
    message_id: stored.id,
    at,
    atMs: now,
  })
  ctx.store.sent.push({
    page_id: pageId,
    recipient_id: recipientId,
    messaging_type: 'UTILITY',
    tag: null,
    text,
    attachment: null,
    message_id: stored.id,
    at,
  })
  return { recipient_id: recipientId, message_id: stored.id }
}
