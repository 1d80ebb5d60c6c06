/** Connecting a page subscribes it to the app's webhooks; the result is kept, answered and told to the apps. */
import { afterEach, describe, expect, it } from 'vitest'
import { GraphCallError } from '../graph/graph-api.ts'
import { type TestApp, fakeGraph, login, pageToken, startTestApp } from '../testing/harness.ts'

describe('POST /api/v2/page subscribes the page to the webhooks', () => {
  let t: TestApp
  afterEach(() => t.close())

  const connect = async (facebookId: string, pageId: string, token?: string) => {
    const who = await login(t.app, facebookId)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page',
      headers: who.auth,
      payload: { id: pageId, name: `Page ${pageId}`, access_token: token ?? pageToken(pageId, facebookId) },
    })
    return { who, res }
  }

  it('answers ok, keeps it, and asks again only when it is not known to work', async () => {
    const calls: string[] = []
    t = await startTestApp('pglite', {
      graph: { ...fakeGraph, subscribePage: async (pageId, token) => void calls.push(`${pageId} ${token}`) },
    })
    const { who, res } = await connect('7201', '950')
    expect(res.statusCode).toBe(200)
    expect(res.json().data.webhooks).toEqual({ ok: true })
    expect(res.json().data.subscription).toBeDefined()
    expect(calls).toEqual([`950 ${pageToken('950', '7201')}`])
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page',
      headers: who.auth,
      payload: { id: '950', name: 'Page 950', access_token: pageToken('950', '7201') },
    })
    expect(again.json().data.webhooks).toEqual({ ok: true })
    expect(calls).toHaveLength(1)
    expect(await t.app.store.query("SELECT webhooks_ok, webhooks_error FROM pages WHERE id = '950'")).toEqual(
      [{ webhooks_ok: true, webhooks_error: null }],
    )
    expect(
      await t.app.store.query(`SELECT type, data FROM owner_events WHERE type = 'page_subscription'`),
    ).toEqual([{ type: 'page_subscription', data: { pageId: '950', ok: true } }])
  })

  it('connects the page all the same when the network refuses, says why, and tries again next time', async () => {
    let refuse = true
    t = await startTestApp('pglite', {
      graph: {
        ...fakeGraph,
        subscribePage: async () => {
          if (refuse) throw new GraphCallError(403, '(#200) The page admin must grant pages_manage_metadata.')
        },
      },
    })
    const { who, res } = await connect('7202', '951')
    expect(res.statusCode).toBe(200)
    expect(res.json().data.webhooks).toEqual({
      ok: false,
      error: '(#200) The page admin must grant pages_manage_metadata.',
    })
    expect(await t.app.store.query("SELECT 1 FROM user_pages WHERE page_id = '951'")).toHaveLength(1)
    expect(
      (
        await t.app.store.query<{ data: unknown }>(
          `SELECT data FROM owner_events WHERE type = 'page_subscription'`,
        )
      ).map((r) => r.data),
    ).toEqual([
      { pageId: '951', ok: false, error: '(#200) The page admin must grant pages_manage_metadata.' },
    ])
    refuse = false
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page',
      headers: who.auth,
      payload: { id: '951', name: 'Page 951', access_token: pageToken('951', '7202') },
    })
    expect(again.json().data.webhooks).toEqual({ ok: true })
  })
})
