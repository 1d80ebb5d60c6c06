/**
 * The Custom Labels API as the Messenger Platform reference describes it: a page's labels
 * (`GET|POST /{page-id}/custom_labels`), one label (`GET|DELETE /{custom-label-id}`), a label on a person
 * (`POST|DELETE /{custom-label-id}/label` with `user`) and a person's labels (`GET /{psid}/custom_labels`).
 * A label's name is `page_label_name` (`name` is its older spelling). Every call needs a page token with
 * pages_manage_metadata. The reference has no call that renames a label.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { authenticate, type SandboxContext } from '../context.ts'
import { fieldsOrDefault, project } from '../fields.ts'
import { errors } from '../graph-error.ts'
import { limitOf, paginate, timeKey } from '../paging.ts'
import { graphParams } from '../params.ts'
import type { SandboxLabel } from '../state/labels.ts'

type Q = Record<string, string | undefined>

export const LABEL_DEFAULT_FIELDS = 'id'

function labelNode(label: SandboxLabel) {
  return { id: label.id, page_label_name: label.name, name: label.name }
}

/** The fields asked for; a label's id comes with them always, as the reference's examples show. */
function labelFields(label: SandboxLabel, fields: string | undefined) {
  return { id: label.id, ...project(labelNode(label), fieldsOrDefault(fields, LABEL_DEFAULT_FIELDS)) }
}

/** The page token's page, refusing a user token and a token without pages_manage_metadata. */
function labelPage(ctx: SandboxContext, request: FastifyRequest): string {
  const { info } = authenticate(ctx, request)
  if (info.kind !== 'page') throw errors.needsPageToken()
  if (!info.granted.includes('pages_manage_metadata')) throw errors.needsMetadata()
  return info.pageId!
}

/** The label, when it is one of the token's page; other ids are answered by the caller's own rules. */
export function pageLabel(ctx: SandboxContext, request: FastifyRequest, id: string): SandboxLabel {
  const pageId = labelPage(ctx, request)
  const label = ctx.store.labels.get(id)
  if (!label || label.pageId !== pageId) throw errors.unknownObject(id)
  return label
}

/** `GET /{custom-label-id}`: the label's fields (default `id`). */
export function readLabel(ctx: SandboxContext, request: FastifyRequest, id: string) {
  const label = pageLabel(ctx, request, id)
  return labelFields(label, (request.query as Q).fields)
}

/** `DELETE /{custom-label-id}`: the label goes, and with it from every person it was on. */
export function deleteLabel(ctx: SandboxContext, request: FastifyRequest, id: string) {
  const label = pageLabel(ctx, request, id)
  ctx.store.labels.delete(label.id)
  return { success: true }
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const b = request.body
  return b && typeof b === 'object' ? (b as Record<string, unknown>) : {}
}

function stringParam(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' && value.trim() ? value.trim() : undefined
}

export function registerGraphLabels(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx

  app.get('/graph/:version/:id/custom_labels', async (request) => {
    const { id } = request.params as { id: string }
    const q = request.query as Q
    const pageId = labelPage(ctx, request)
    let labels: SandboxLabel[]
    if (id === pageId || id === 'me') labels = store.labels.ofPage(pageId)
    else if (store.conversationWith(pageId, id)) labels = store.labels.ofUser(pageId, id)
    else throw errors.unknownObject(id)
    const newestFirst = [...labels].sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1))
    const page = paginate(request, newestFirst, (l) => timeKey(l.createdMs, l.id), {
      limit: limitOf(q.limit, 25),
      after: q.after,
      before: q.before,
    })
    return { ...page, data: page.data.map((l) => labelFields(l, q.fields)) }
  })

  app.post('/graph/:version/:id/custom_labels', async (request) => {
    const { id } = request.params as { id: string }
    const pageId = labelPage(ctx, request)
    if (id !== pageId && id !== 'me') throw errors.unknownObject(id)
    const body = graphParams(request)
    const name = stringParam(body.page_label_name) ?? stringParam(body.name)
    if (!name) throw errors.invalidParam('The parameter page_label_name is required')
    return { id: store.labels.create(pageId, name).id }
  })

  /** Puts the label on a person of the page (`user`, a PSID); on twice is still on once. */
  app.post('/graph/:version/:id/label', async (request) => {
    const { id } = request.params as { id: string }
    const label = pageLabel(ctx, request, id)
    const user = stringParam(bodyOf(request).user) ?? stringParam((request.query as Q).user)
    if (!user) throw errors.invalidParam('The parameter user is required')
    if (!store.conversationWith(label.pageId, user)) throw errors.noMatchingUser()
    label.users.add(user)
    return { success: true }
  })

  app.delete('/graph/:version/:id/label', async (request) => {
    const { id } = request.params as { id: string }
    const label = pageLabel(ctx, request, id)
    const user = stringParam((request.query as Q).user) ?? stringParam(bodyOf(request).user)
    if (!user) throw errors.invalidParam('The parameter user is required')
    if (!store.conversationWith(label.pageId, user)) throw errors.noMatchingUser()
    label.users.delete(user)
    return { success: true }
  })
}

/** Whether an id is a custom label's (the generic node routes hand those here). */
export function isLabelId(ctx: SandboxContext, id: string): boolean {
  return ctx.store.labels.get(id) !== undefined
}
