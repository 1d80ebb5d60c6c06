/**
 * The sandbox's utility-message answers against the recorded shapes in tests/fixtures/graph/utility/ and the
 * status webhook bodies in tests/fixtures/graph/webhooks/template-status-*.json: every field a fixture has is
 * in the sandbox's answer with the same JSON type (lists by their first item), and an error's code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { webhookReceiver, type WebhookReceiver } from '../marketing/test-support.ts'
import { startSandbox, type TestSandbox, VERSION } from '../test-support.ts'

const ROOT = join(process.cwd(), 'tests/fixtures/graph')
type Json = unknown
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, Json>

function shape(value: Json, path = ''): string[] {
  if (Array.isArray(value)) return value.length ? shape(value[0], `${path}[]`) : [`${path}: array`]
  if (value && typeof value === 'object')
    return Object.entries(value)
      .filter(([k]) => !k.startsWith('_'))
      .flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k))
  return [`${path}: ${value === null ? 'null' : typeof value}`]
}

function missing(fixture: Json, answer: Json): string[] {
  const have = new Set(shape(answer))
  const free = /(^|\.)(fbtrace_id|paging\..*|message)(:|$)/
  return shape(fixture).filter((p) => !have.has(p) && !free.test(p.split(':')[0]!))
}

let sb: TestSandbox
let hooks: WebhookReceiver
let token: string
let page: string

async function graph(method: string, path: string, query: Record<string, string> = {}, body?: unknown) {
  const q = new URLSearchParams({ ...query, access_token: token })
  const res = await fetch(`${sb.url}/graph/${VERSION}/${path}?${q}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

beforeAll(async () => {
  hooks = await webhookReceiver()
  sb = await startSandbox({ messengerWebhookUrl: hooks.url, utilityReviewMs: 30 })
  page = sb.ids.small
  token = await sb.pageToken(
    page,
    await sb.userToken('demo', [...REQUIRED_PERMISSIONS, 'page_utility_messaging']),
  )
})
afterAll(async () => {
  await sb.app.close()
  await hooks.close()
})

describe('utility messages: the sandbox answers the recorded shapes', () => {
  const files = readdirSync(join(ROOT, 'utility')).filter((f) => f.endsWith('.json'))

  it('has a fixture for every call and refusal', () => {
    expect(files.sort()).toEqual([
      'error-132000.json',
      'error-132001.json',
      'error-200-permission.json',
      'library-search.json',
      'page-templates.json',
      'send-utility.json',
      'template-clone.json',
      'template-create.json',
    ])
  })

  it('library, clone, create, list and send', async () => {
    const customer = sb.seeded(page).find((c) => !c.blocked && c.canReply)!.customer.id
    const calls: [string, () => Promise<{ status: number; body: Json }>][] = [
      [
        'library-search.json',
        () => graph('GET', 'message_template_library', { search: 'order', language: 'en_US' }),
      ],
      [
        'template-clone.json',
        () =>
          graph(
            'POST',
            `${page}/message_templates`,
            {},
            {
              name: 'order_ready',
              language: 'en_US',
              category: 'UTILITY',
              library_template_name: 'order_ready_1',
            },
          ),
      ],
      [
        'template-create.json',
        () =>
          graph(
            'POST',
            `${page}/message_templates`,
            {},
            (read('utility/template-create.json').request as { body: Json }).body,
          ),
      ],
      ['page-templates.json', () => graph('GET', `${page}/message_templates`)],
      [
        'send-utility.json',
        () =>
          graph(
            'POST',
            `${page}/messages`,
            {},
            {
              ...(read('utility/send-utility.json').request as { body: Record<string, Json> }).body,
              recipient: { id: customer },
            },
          ),
      ],
    ]
    for (const [file, call] of calls) {
      const fixture = read(`utility/${file}`)
      const answer = await call()
      expect([file, answer.status]).toEqual([file, fixture.status])
      expect([file, missing(fixture.body, answer.body)]).toEqual([file, []])
    }
  })

  it('refusals: permission, parameters, unknown template', async () => {
    const customer = sb.seeded(page).find((c) => !c.blocked && c.canReply)!.customer.id
    const send = (params: string[], name = 'order_ready') =>
      graph(
        'POST',
        `${page}/messages`,
        {},
        {
          recipient: { id: customer },
          messaging_type: 'UTILITY',
          message: {
            template: {
              name,
              language: { code: 'en_US' },
              components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }],
            },
          },
        },
      )
    const cases: [string, () => Promise<{ status: number; body: Json }>][] = [
      ['error-132000.json', () => send(['Maya'])],
      ['error-132001.json', () => send(['Maya', '#1'], 'no_such_template')],
      [
        'error-200-permission.json',
        async () => {
          const plain = await sb.pageToken(page)
          const res = await fetch(
            `${sb.url}/graph/${VERSION}/${page}/message_templates?access_token=${plain}`,
          )
          return { status: res.status, body: (await res.json()) as Json }
        },
      ],
    ]
    for (const [file, call] of cases) {
      const fixture = read(`utility/${file}`) as { status: number; body: { error: { code: number } } }
      const answer = (await call()) as { status: number; body: { error: { code: number } } }
      expect([file, answer.status, answer.body.error.code]).toEqual([
        file,
        fixture.status,
        fixture.body.error.code,
      ])
      expect([file, missing(fixture.body, answer.body)]).toEqual([file, []])
    }
  })

  it('the status webhook has the recorded shape', async () => {
    const statuses = () =>
      hooks.bodies.filter((b) => b.entry.some((e) => e.changes?.some((c) => (c as { field?: string }).field)))
    const until = Date.now() + 3_000
    while (statuses().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    const fixture = read('webhooks/template-status-approved.json')
    const body = statuses()[0]
    expect(
      missing(fixture.body, { ...body, entry: body?.entry.map(({ messaging: _m, ...e }) => e) }),
    ).toEqual([])
  })
})
