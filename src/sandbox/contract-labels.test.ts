/**
 * The sandbox's Custom Labels API against the recorded shapes in tests/fixtures/graph/labels/: each fixture's
 * request is made of the sandbox (placeholders filled with the demo page, one of its labels and customers),
 * and the answer must have every field of the fixture with the same JSON type, an error its code and subcode.
 * Then the calls together: a label created, put on a person, read back on the person, taken off, deleted.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../core/constants/limits.ts'
import { DEMO_LABELS } from './state/labels.ts'
import { sandboxForFile, type TestSandbox, VERSION } from './test-support.ts'

const ROOT = join(process.cwd(), 'tests/fixtures/graph/labels')

interface Fixture {
  file: string
  request: {
    method: 'GET' | 'POST' | 'DELETE'
    path: string
    query?: Record<string, string>
    body?: Record<string, string>
    scopes_without?: string
  }
  status: number
  body: unknown
}

const fixtures: Fixture[] = readdirSync(ROOT)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Omit<Fixture, 'file'>) }))

/** Every path of a JSON value with its type: `data[].id: string` (lists by their first item). */
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length ? shape(value[0], `${path}[]`) : [`${path}: array`]
  if (value && typeof value === 'object')
    return Object.entries(value)
      .filter(([k]) => !k.startsWith('_') && k !== 'fbtrace_id')
      .flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k))
  return [`${path}: ${value === null ? 'null' : typeof value}`]
}

let sb: TestSandbox
sandboxForFile((started) => (sb = started))

async function call(
  method: string,
  path: string,
  token: string,
  query: Record<string, string> = {},
  body?: unknown,
) {
  const qs = new URLSearchParams({ ...query, access_token: token })
  const res = await fetch(`${sb.url}/graph/${VERSION}/${path}?${qs}`, {
    method,
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('the Custom Labels API against the recorded shapes', () => {
  it.each(fixtures.map((f) => [f.file, f] as const))('%s', async (_name, fx) => {
    const page = sb.ids.small
    const customer = sb.seeded(page)[0]!.customer.id
    const scopes = fx.request.scopes_without
      ? REQUIRED_PERMISSIONS.filter((p) => p !== fx.request.scopes_without)
      : [...REQUIRED_PERMISSIONS]
    const token = await sb.pageToken(page, await sb.userToken('demo', scopes))
    const full = await sb.pageToken(page)
    const labels = (await call('GET', `${page}/custom_labels`, full, { fields: 'id,page_label_name' })).body
      .data as { id: string; page_label_name: string }[]
    const label = labels[0]!.id
    let deleted = ''
    if (fx.request.path.includes('{deleted-label}')) {
      deleted = ((await call('POST', `${page}/custom_labels`, full, {}, { page_label_name: 'Gone' })).body
        .id as string)!
      await call('DELETE', deleted, full)
    }
    // The person's labels: make sure the customer carries one, as the fixture's answer does.
    await call('POST', `${label}/label`, full, {}, { user: customer })
    const fill = (s: string) =>
      s
        .replace('{page}', page)
        .replace('{deleted-label}', deleted)
        .replace('{label}', label)
        .replace('{psid}', customer)
    const query = Object.fromEntries(Object.entries(fx.request.query ?? {}).map(([k, v]) => [k, fill(v)]))
    const body = fx.request.body
      ? Object.fromEntries(Object.entries(fx.request.body).map(([k, v]) => [k, fill(v)]))
      : undefined
    const answer = await call(fx.request.method, fill(fx.request.path), token, query, body)
    expect(answer.status).toBe(fx.status)
    expect(shape(answer.body).sort()).toEqual(expect.arrayContaining(shape(fx.body).sort()))
    const err = (fx.body as { error?: { code: number; error_subcode?: number } }).error
    if (err) {
      const got = answer.body.error as { code: number; error_subcode?: number }
      expect([got.code, got.error_subcode]).toEqual([err.code, err.error_subcode])
    }
  })
})

describe('custom labels on the demo customers', () => {
  it('opens each page with the demo labels, some on its customers', async () => {
    const page = sb.ids.large
    const token = await sb.pageToken(page)
    const list = (await call('GET', `${page}/custom_labels`, token, { fields: 'page_label_name' })).body
      .data as { id: string; page_label_name: string }[]
    expect(list.map((l) => l.page_label_name).sort()).toEqual(DEMO_LABELS.map((l) => l.name).sort())
    const customers = sb.seeded(page).map((c) => c.customer.id)
    let carried = 0
    for (const id of customers.slice(0, 100)) {
      const mine = (await call('GET', `${id}/custom_labels`, token, { fields: 'page_label_name' })).body
        .data as unknown[]
      carried += mine.length
    }
    expect(carried).toBeGreaterThan(0)
  })

  it('creates a label, puts it on a person, reads it on them, takes it off and deletes it', async () => {
    const page = sb.ids.small
    const token = await sb.pageToken(page)
    const psid = sb.seeded(page)[3]!.customer.id
    const created = await call('POST', `${page}/custom_labels`, token, {}, { page_label_name: 'Size M' })
    const id = created.body.id as string
    expect(await call('POST', `${id}/label`, token, {}, { user: psid })).toMatchObject({
      body: { success: true },
    })
    const mine = await call('GET', `${psid}/custom_labels`, token, { fields: 'id,page_label_name' })
    expect(mine.body.data).toContainEqual({ id, page_label_name: 'Size M' })
    await call('DELETE', `${id}/label`, token, { user: psid })
    const after = await call('GET', `${psid}/custom_labels`, token, { fields: 'id' })
    expect(after.body.data).not.toContainEqual({ id })
    expect((await call('DELETE', id, token)).body).toEqual({ success: true })
    const gone = await call('GET', id, token, { fields: 'page_label_name' })
    expect(gone.status).toBe(400)
  })

  it('refuses a user token, another page’s label and a person who is not the page’s', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const other = await sb.pageToken(sb.ids.large)
    const user = await sb.userToken()
    expect((await call('GET', `${sb.ids.small}/custom_labels`, user)).body.error).toMatchObject({ code: 190 })
    const label = (
      (await call('GET', `${sb.ids.small}/custom_labels`, token)).body.data as { id: string }[]
    )[0]!.id
    const foreign = await call(
      'POST',
      `${label}/label`,
      other,
      {},
      { user: sb.seeded(sb.ids.large)[0]!.customer.id },
    )
    expect(foreign.body.error).toMatchObject({ code: 100, error_subcode: 33 })
    const stranger = await call('POST', `${label}/label`, token, {}, { user: '1111111111111111' })
    expect(stranger.body.error).toMatchObject({ code: 100, error_subcode: 2018001 })
    const unnamed = await call('POST', `${sb.ids.small}/custom_labels`, token, {}, { page_label_name: ' ' })
    expect(unnamed.body.error).toMatchObject({ code: 100 })
  })

  it('takes a label set in the Page Inbox through the test control', async () => {
    const psid = sb.seeded(sb.ids.small)[5]!.customer.id
    const set = (await sb.post('/labels', { page_id: sb.ids.small, customer_id: psid, label: 'Pickup' })) as {
      id: string
    }
    const token = await sb.pageToken(sb.ids.small)
    const mine = await call('GET', `${psid}/custom_labels`, token, { fields: 'page_label_name' })
    expect(mine.body.data).toContainEqual({ id: set.id, page_label_name: 'Pickup' })
  })
})
