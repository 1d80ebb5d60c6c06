/**
 * Events travel through the database, never through one instance's memory: a webhook taken by one API
 * instance reaches the streams open on another sharing the PostgreSQL database, also after the listening
 * connection dropped (it reconnects and catches up); on PGlite, every tab of one instance hears each event once.
 */
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import {
  TEST_DATABASE_URL,
  createTestDatabase,
  fakeGraph,
  login,
  registerPage,
  startTestApp,
  testConfig,
} from '../testing/harness.ts'
import { openSse } from '../testing/sse.ts'

const SECRET = 'shared-events-secret'

function customerMessage(pageId: string, mid: string, text: string) {
  const body = JSON.stringify({
    object: 'page',
    entry: [
      {
        id: pageId,
        time: Date.now(),
        messaging: [
          { sender: { id: '880' }, recipient: { id: pageId }, timestamp: Date.now(), message: { mid, text } },
        ],
      },
    ],
  })
  return {
    method: 'POST' as const,
    url: '/webhooks/messenger',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
  }
}

const mids = (frames: { event?: string; data?: unknown }[]) =>
  frames.filter((f) => f.event === 'message').map((f) => (f.data as { mid: string }).mid)

describe.skipIf(!TEST_DATABASE_URL)(
  TEST_DATABASE_URL
    ? 'events across two instances on one PostgreSQL database'
    : 'events across two instances on one PostgreSQL database: skipped (TEST_DATABASE_URL not set)',
  () => {
    it('reach a stream on the other instance, and keep coming after the listening connection dropped', async () => {
      const db = await createTestDatabase(TEST_DATABASE_URL!)
      const config = testConfig({ DATABASE_URL: db.url, FB_APP_SECRET: SECRET })
      const apps: FastifyInstance[] = []
      try {
        for (let i = 0; i < 2; i++) apps.push(await buildApp({ config, graph: fakeGraph }))
        const [one, two] = apps as [FastifyInstance, FastifyInstance]
        const owner = await login(one, '8301')
        await registerPage(one, owner, '960')
        const base = await two.listen({ host: '127.0.0.1', port: 0 })
        const stream = await openSse(`${base}/api/v2/events`, owner.auth)
        await stream.waitFor((f) => f.comment === 'connected')

        expect((await one.inject(customerMessage('960', 'm_across', 'across'))).statusCode).toBe(200)
        await stream.waitFor((f) => f.event === 'message')
        expect(mids(stream.frames)).toEqual(['m_across'])

        // The listening connection of the stream's instance is cut; what is sent meanwhile still arrives.
        two.store.dropListener!()
        expect((await one.inject(customerMessage('960', 'm_during', 'during'))).statusCode).toBe(200)
        expect((await one.inject(customerMessage('960', 'm_after', 'after'))).statusCode).toBe(200)
        await stream.waitFor((f) => f.event === 'message', 3, 20_000)
        expect(mids(stream.frames)).toEqual(['m_across', 'm_during', 'm_after'])
        stream.close()
      } finally {
        await Promise.all(apps.map((a) => a.close()))
        await db.drop()
      }
    })
  },
)

describe('events on PGlite', () => {
  it('reach every tab of the owner once, through the database', async () => {
    const t = await startTestApp('pglite', {}, { FB_APP_SECRET: SECRET })
    try {
      const owner = await login(t.app, '8302')
      await registerPage(t.app, owner, '961')
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
      const tabs = await Promise.all([0, 1].map(() => openSse(`${base}/api/v2/events`, owner.auth)))
      for (const tab of tabs) await tab.waitFor((f) => f.comment === 'connected')
      const request = customerMessage('961', 'm_tabs', 'to both tabs')
      await t.app.inject(request)
      await t.app.inject(request)
      for (const tab of tabs) await tab.waitFor((f) => f.event === 'message')
      await t.app.webhooks.drain()
      for (const tab of tabs) {
        expect(mids(tab.frames)).toEqual(['m_tabs'])
        tab.close()
      }
    } finally {
      await t.close()
    }
  })
})
