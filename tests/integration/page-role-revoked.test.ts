/**
 * A page role lost at the network ends the owner's access here: the sandbox revokes the demo owner's role on
 * a page (`POST /sandbox/tokens/expire {"revoke":true}`), the API learns it by re-checking the binding with
 * the network (a page token failing in the server sender, or the scheduled re-check), and from then on the
 * page's calls answer 403 `page_access_revoked`, an open event stream carries no further customer message of
 * the page (it is told the page was lost), no push goes out for them, and the server-held job on the page is
 * stopped with a reason. Opening the page again with a valid token restores access. On PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import type { RecordedPush } from '../../src/sandbox/push/service.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import {
  createTestDatabase,
  onEveryStore,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../../src/server/testing/harness.ts'
import { conversationTopic } from '../../src/server/push/notify.ts'
import { openSse, type SseReader } from '../../src/server/testing/sse.ts'
import { DEMO_SEED, pageTokenOf, signInDemo, startSandboxStack, type SandboxStack } from './support/stack.ts'

const ids = demoPageIds(DEMO_SEED)
const PAGE = ids.small

onEveryStore('a page role revoked at the network', (kind) => {
  let db: TestDatabase | undefined
  let stack: SandboxStack
  let userToken: string
  let session: string
  let stream: SseReader

  const json = (method: string, path: string, body?: unknown) => stack.json(method, path, body, session)
  /** The pushes of customer messages received (a job's notices have no conversation topic). */
  const customers = new Set<string>()
  const pushes = async () =>
    ((await stack.json('GET', '/sandbox/push/owner-phone')).body.data as RecordedPush[]).filter((p) =>
      [...customers].some((c) => p.topic === conversationTopic(PAGE, c)),
    ).length
  const bind = async () => {
    const token = await pageTokenOf(stack, userToken, PAGE)
    const res = await json('POST', '/api/v2/page', { id: PAGE, name: 'Kanha Bakery', access_token: token })
    expect(res.status).toBe(200)
    return token
  }
  const createJob = (total = 1) =>
    json('POST', '/api/v2/messages', {
      page_id: PAGE,
      message_type_id: 1,
      message: `Hello ${Date.now()}`,
      label: '[]',
      total_messages: total,
      branded_messages_amount: 0,
    })
  const revokeRole = (revoke: boolean) =>
    stack.json('POST', '/sandbox/tokens/expire', { page_id: PAGE, revoke })
  const binding = async () =>
    (
      await stack.app.store.query<{ revoked: boolean }>(
        `SELECT revoked_at IS NOT NULL AS revoked FROM user_pages
          WHERE page_id = $1 AND user_id = (SELECT id FROM users WHERE facebook_id = $2)`,
        [PAGE, (await stack.json('GET', '/api/v2/user', undefined, session)).body.data.facebook_id],
      )
    )[0]
  /** A customer writes to the page; answers its mid once the API has stored and processed the webhook. */
  const customerWrites = async (text: string) => {
    const { mid, customer_id } = (
      await stack.json('POST', '/sandbox/customer-message', { page_id: PAGE, text })
    ).body as { mid: string; customer_id: string }
    customers.add(customer_id)
    await expect
      .poll(
        async () => {
          await stack.app.webhooks.drain()
          return (await stack.app.store.query('SELECT 1 FROM page_messages WHERE mid = $1', [mid])).length
        },
        { timeout: 15_000 },
      )
      .toBe(1)
    return mid
  }
  const streamed = (mid: string) =>
    stream.frames.some((f) => f.event === 'message' && (f.data as { mid?: string }).mid === mid)

  beforeAll(async () => {
    db = kind === 'postgres' ? await createTestDatabase(TEST_DATABASE_URL!) : undefined
    stack = await startSandboxStack({
      env: { PACING_SCALE: '0.05', ...(db ? { DATABASE_URL: db.url } : {}) },
      sandbox: { messengerWebhookUrl: '/webhooks/messenger' },
      app: {
        serverSender: { settleMs: 300, pollingSeconds: 0.5 },
        pageChecks: { everyMs: 200 },
      },
    })
    ;({ userToken, session } = await signInDemo(stack))
    await bind()
    expect(
      (
        await json('PUT', '/api/v2/push/subscription', {
          endpoint: `${stack.base}/sandbox/push/owner-phone`,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        })
      ).status,
    ).toBe(200)
    stream = await openSse(`${stack.base}/api/v2/events`, { authorization: `Bearer ${session}` })
    await stream.waitFor((f) => f.event === 'ready')
  })
  afterAll(async () => {
    stream?.close()
    await stack?.close()
    await db?.drop()
  })

  it('a page token failing in the server sender re-checks the binding: revoked, the job stops, the page goes quiet', async () => {
    // Before the revocation the page is the owner's: a customer message is streamed and pushed.
    const before = await customerWrites('Before the role is lost')
    await stream.waitFor((f) => f.event === 'message' && (f.data as { mid?: string }).mid === before)
    await expect.poll(pushes, { timeout: 15_000 }).toBe(1)

    const pageToken = await pageTokenOf(stack, userToken, PAGE)
    const list = await (
      await fetch(
        `${stack.base}/sandbox/graph/v25.0/${PAGE}/conversations?fields=id,participants,messages.limit(10){from,created_time}&limit=100&access_token=${pageToken}`,
      )
    ).json()
    const now = Date.now()
    const recipients = (
      list.data as {
        id: string
        participants: { data: { id: string; name: string }[] }
      }[]
    )
      .filter((c) => isInsideWindow(conversationCustomerMessageAt(PAGE, c as never), now))
      .slice(0, 3)
      .map((c) => {
        const who = c.participants.data.find((p) => p.id !== PAGE)!
        return { recipient_id: who.id, name: who.name, conversation_id: c.id }
      })
    expect(recipients).toHaveLength(3)
    const created = await createJob(recipients.length)
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect((await json('PUT', `/api/v2/messages/${id}/recipients`, { recipients })).status).toBeLessThan(300)

    // The role goes at the network; the server learns it only when the job's page token fails there.
    expect((await revokeRole(true)).status).toBe(200)
    const handover = await json('POST', `/api/v2/messages/${id}/handover`, {
      lease: 0,
      page_token: pageToken,
      cursor: 0,
    })
    expect(handover.status).toBe(200)
    await expect
      .poll(
        async () =>
          (
            await stack.app.store.query<{ state: string; stop_reason: string | null }>(
              'SELECT state, stop_reason FROM messages WHERE id = $1',
              [id],
            )
          )[0],
        { timeout: 20_000, interval: 200 },
      )
      .toEqual({ state: 'stopped', stop_reason: 'page_access_revoked' })
    const [job] = await stack.app.store.query<{ ok: number; ng: number; skipped: number }>(
      'SELECT ok_count AS ok, ng_count AS ng, skipped_count AS skipped FROM messages WHERE id = $1',
      [id],
    )
    // Nobody dropped silently: every recipient is counted as sent, refused or skipped.
    expect(job!.ok + job!.ng + job!.skipped).toBe(recipients.length)
    expect(await binding()).toEqual({ revoked: true })

    // (1) every page call answers 403 with a machine code.
    const refused = await createJob()
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('page_access_revoked')
    // The open stream was told the page was lost.
    await stream.waitFor(
      (f) => f.event === 'page_access_lost' && (f.data as { pageId?: string }).pageId === PAGE,
    )

    // (2) and (3): a customer message after the revocation is stored, but neither streamed nor pushed.
    const after = await customerWrites('After the role is lost')
    await new Promise((r) => setTimeout(r, 1_000))
    expect(streamed(after)).toBe(false)
    expect(await pushes()).toBe(1)
  })

  it('opening the page again with a valid token restores access; the scheduled re-check revokes it again', async () => {
    expect((await revokeRole(false)).status).toBe(200)
    await bind()
    expect(await binding()).toEqual({ revoked: false })
    expect((await createJob()).status).toBe(201)
    const back = await customerWrites('The role is back')
    await stream.waitFor((f) => f.event === 'message' && (f.data as { mid?: string }).mid === back)

    expect((await revokeRole(true)).status).toBe(200)
    // Nothing has used the page token since: only the schedule finds out, once the last check is old enough.
    await stack.app.store.query(
      `UPDATE user_pages SET checked_at = now() - interval '2 hours' WHERE page_id = $1`,
      [PAGE],
    )
    await expect.poll(binding, { timeout: 10_000, interval: 100 }).toEqual({ revoked: true })
    const refused = await createJob()
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('page_access_revoked')
    const pushed = await pushes()
    const after = await customerWrites('After the second loss')
    await new Promise((r) => setTimeout(r, 1_000))
    expect(streamed(after)).toBe(false)
    expect(await pushes()).toBe(pushed)
  })
})
