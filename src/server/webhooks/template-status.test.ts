/**
 * `message_template_status_update` on `/webhooks/messenger`: a signed body's approval or rejection reaches the
 * page's owners as a `template_status` event (the network's reason with a rejection); an unsigned one, a
 * malformed change and another page field change nothing.
 */
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type TestApp, login, onEveryStore, registerPage, startTestApp } from '../testing/harness.ts'

const SECRET = 'template-status-secret'
const PAGE = '682498302938465'

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../tests/fixtures/graph/webhooks/${name}.json`, import.meta.url), 'utf8'),
  ) as { body: { entry: { changes: { value: Record<string, unknown> }[] }[] } }

const sign = (raw: string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`

onEveryStore('template status webhooks', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {},
      { FB_APP_SECRET: SECRET, WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests' },
    )
    const owner = await login(t.app, '6201')
    await registerPage(t.app, owner, PAGE)
  })
  afterAll(() => t.close())

  const post = async (body: unknown, signature?: string) => {
    const raw = JSON.stringify(body)
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/messenger',
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature ?? sign(raw) },
    })
    await t.app.webhooks.drain()
    return res
  }
  const events = () =>
    t.app.store
      .query<{ data: Record<string, unknown> }>(
        "SELECT data FROM owner_events WHERE type = 'template_status' ORDER BY id",
      )
      .then((rows) => rows.map((r) => r.data))

  it('publishes an approval and a rejection with the network reason to the page owners', async () => {
    expect((await post(fixture('template-status-approved').body)).statusCode).toBe(200)
    expect((await post(fixture('template-status-rejected').body)).statusCode).toBe(200)
    expect(await events()).toEqual([
      {
        pageId: PAGE,
        templateId: '2045000000000002',
        name: 'class_reminder',
        language: 'en_US',
        status: 'APPROVED',
        reason: null,
      },
      {
        pageId: PAGE,
        templateId: '2045000000000002',
        name: 'class_reminder',
        language: 'en_US',
        status: 'REJECTED',
        reason: 'INCORRECT_CATEGORY',
      },
    ])
  })

  it('refuses a wrongly signed body and leaves aside a malformed change or another field', async () => {
    const before = (await events()).length
    const body = fixture('template-status-approved').body
    expect((await post(body, sign(JSON.stringify(body), 'wrong'))).statusCode).toBe(403)
    const broken = structuredClone(body)
    broken.entry[0]!.changes[0]!.value = { event: 'APPROVED' }
    expect((await post(broken)).statusCode).toBe(200)
    const other = { object: 'page', entry: [{ id: PAGE, time: 1, changes: [{ field: 'feed', value: {} }] }] }
    expect((await post(other)).statusCode).toBe(200)
    expect((await events()).length).toBe(before)
  })
})
