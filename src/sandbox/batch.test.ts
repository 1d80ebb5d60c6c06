/**
 * The sandbox's batch call and the app's use of it: each call of a batch answers what it answers alone, in the
 * calls' order, one call's refusal is that call's alone, and a batch that is not one is refused whole.
 */
import { describe, expect, it } from 'vitest'
import { createLabelsGraph } from '../core/graph/labels.ts'
import { sandboxForFile, type TestSandbox, VERSION } from './test-support.ts'

let sb: TestSandbox
sandboxForFile((started) => (sb = started))

async function post(params: Record<string, string>, path = '') {
  const res = await fetch(`${sb.url}/graph/${VERSION}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  })
  return { status: res.status, body: (await res.json()) as unknown }
}

/** The first `n` customers of a demo page. */
const customers = (page: string, n: number) =>
  sb
    .seeded(page)
    .slice(0, n)
    .map((c) => c.customer.id)

async function alone(path: string, token: string) {
  const res = await fetch(
    `${sb.url}/graph/${VERSION}/${path}${path.includes('?') ? '&' : '?'}access_token=${token}`,
  )
  return { code: res.status, body: (await res.json()) as unknown }
}

describe('the Graph batch call', () => {
  it('answers each call in order as it answers alone, its body a JSON string', async () => {
    const page = sb.ids.large
    const token = await sb.pageToken(page)
    const psids = customers(page, 3)
    const paths = [
      ...psids.map((p) => `${p}/custom_labels?fields=id,page_label_name`),
      `${page}/custom_labels?fields=page_label_name`,
    ]
    const batch = JSON.stringify(paths.map((relative_url) => ({ method: 'GET', relative_url })))
    const answer = await post({ access_token: token, batch })
    expect(answer.status).toBe(200)
    const items = answer.body as { code: number; headers?: { name: string; value: string }[]; body: string }[]
    expect(items).toHaveLength(4)
    for (const [i, item] of items.entries()) {
      const one = await alone(paths[i]!, token)
      expect({ code: item.code, body: JSON.parse(item.body) as unknown }).toEqual(one)
      expect(item.headers).toContainEqual({ name: 'Content-Type', value: expect.stringContaining('json') })
    }
    const bare = await post({ access_token: token, batch, include_headers: 'false' })
    expect((bare.body as { headers?: unknown }[]).every((item) => !('headers' in item))).toBe(true)
  })

  it('answers a refused call with its own error while the others succeed', async () => {
    const page = sb.ids.small
    const token = await sb.pageToken(page)
    const psid = sb.seeded(page)[0]!.customer.id
    const batch = JSON.stringify([
      { method: 'GET', relative_url: 'no-such-person/custom_labels' },
      { method: 'GET', relative_url: `/${VERSION}/${psid}/custom_labels` },
    ])
    const items = (await post({ access_token: token, batch })).body as { code: number; body: string }[]
    expect(items[0]!.code).toBe(400)
    expect(JSON.parse(items[0]!.body)).toMatchObject({ error: { code: 100, error_subcode: 33 } })
    expect(items[1]!.code).toBe(200)
    expect(JSON.parse(items[1]!.body)).toHaveProperty('data')
  })

  it('refuses a batch of more than 50 calls, or one that is not a list of calls, whole', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const many = JSON.stringify(Array.from({ length: 51 }, () => ({ method: 'GET', relative_url: 'me' })))
    for (const batch of [many, 'not json', '[]', JSON.stringify([{ method: 'PUT', relative_url: 'me' }])]) {
      const answer = await post({ access_token: token, batch })
      expect(answer.status, batch.slice(0, 20)).toBe(400)
      expect(answer.body).toMatchObject({ error: { code: 100 } })
    }
    expect((await post({ access_token: token })).status).toBe(400)
  })

  it('reads many customers’ labels in one call, leaving out a person the network refused', async () => {
    const page = sb.ids.large
    const token = await sb.pageToken(page)
    const psids = customers(page, 49)
    const graph = createLabelsGraph({ baseUrl: `${sb.url}/graph`, version: VERSION })
    const read = await graph.usersLabels([...psids, 'no-such-person'], token)
    expect(read.size).toBe(49)
    expect(read.has('no-such-person')).toBe(false)
    for (const psid of psids.slice(0, 10)) expect(read.get(psid)).toEqual(await graph.userLabels(psid, token))
    expect([...read.values()].some((labels) => labels.length > 0)).toBe(true)
  })
})
