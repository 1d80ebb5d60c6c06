/**
 * The lease hand-over and the server sender on every store (PGlite always, PostgreSQL with TEST_DATABASE_URL):
 * one sender per job, nobody twice, nobody skipped, a send of an earlier run left to land before it is
 * reconciled, an expired token pausing the job and telling the owner.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BRANDED_FOOTER } from '../../core/bulk/allowance.ts'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import { GraphError } from '../../core/graph/errors.ts'
import {
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import { EVENTS_CHANNEL, parseNotifyPayload } from '../repo/owner-events.ts'
import type { Store } from '../db/store.ts'
import { progressMarks } from './progress.ts'
import { runSlice, type OwnerEvent, type ServerSenderDeps } from './server-sender.ts'
import { tokenBox } from './token-box.ts'

class FakeGraph implements SenderGraph {
  sent: { recipientId: string; text?: string }[] = []
  reads = 0
  failWith: GraphError | undefined
  /** Failures answered to the next sends, one each, before `failWith`. */
  failNext: GraphError[] = []
  async send(_page: string, _token: string, req: { recipientId: string; text?: string }) {
    const next = this.failNext.shift()
    if (next) throw next
    if (this.failWith) throw this.failWith
    this.sent.push({ recipientId: req.recipientId, text: req.text })
    return { recipient_id: req.recipientId, message_id: `m${this.sent.length}` }
  }
  async uploadAttachment() {
    return { attachment_id: 'a1' }
  }
  async messages() {
    this.reads++
    return { data: [] }
  }
}

onEveryStore('the server sender', (kind) => {
  let t: TestApp
  let n = 0
  const box = tokenBox(randomBytes(32))
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'false' })
  })
  afterAll(() => t.close())

  async function job(count: number, extra: Record<string, unknown> = {}) {
    const fb = `${kind === 'pglite' ? 5 : 6}10${++n}`
    const who = await login(t.app, fb)
    await registerPage(t.app, who, fb)
    await setAllowance(t.app, fb, { subscriptions_messages: 100 })
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages',
      headers: who.auth,
      payload: {
        page_id: fb,
        message_type_id: 1,
        message: 'Hi',
        label: '[]',
        total_messages: count,
        branded_messages_amount: 0,
        ...extra,
      },
    })
    const id = (created.json() as { id: string }).id
    const recipients = Array.from({ length: count }, (_, i) => ({
      recipient_id: `r${i}`,
      // The last recipient has no name on the network.
      name: extra.message && i === count - 1 ? '' : `R${i} Surname`,
      conversation_id: `c${i}`,
    }))
    await t.app.inject({
      method: 'PUT',
      url: `/api/v2/messages/${id}/recipients`,
      headers: who.auth,
      payload: { recipients },
    })
    return { id, who }
  }

  /** The hand-over as the route does it, without the queue (the test runs the slices itself). */
  async function handOver(id: string, userId: string, body: Record<string, unknown>) {
    const { handOver: give } = await import('./jobs.ts')
    return give(t.app.store, box, userId, id, {
      lease: 0,
      page_token: 'page-token-secret',
      cursor: 0,
      results: [],
      uncertain: [],
      ...body,
    } as never)
  }

  function deps(graph: FakeGraph, events: OwnerEvent[] = []): ServerSenderDeps {
    return {
      store: t.app.store,
      graph,
      box,
      notify: async (_user, event) => void events.push(event),
      now: Date.now,
      random: () => 0,
      sleep: async () => undefined,
      pacingScale: 0.001,
      settleMs: 0,
    }
  }

  it('costs the database four statements per message sent', async () => {
    const count = 20
    const { id, who } = await job(count)
    await handOver(id, who.user.id, {})
    // Every round trip to the database: a statement, and a transaction's BEGIN and COMMIT besides its own.
    let statements = 0
    const base = t.app.store
    const counted = <Q extends Pick<Store, 'query' | 'exec'>>(q: Q): Q => ({
      ...q,
      query: (sql: string, params?: never) => (statements++, q.query(sql, params)),
      exec: (sql: string) => (statements++, q.exec(sql)),
    })
    const store: Store = {
      ...counted(base),
      transaction: (fn) => ((statements += 2), base.transaction((tx) => fn(counted(tx)))),
    }
    const graph = new FakeGraph()
    for (let i = 0; i < 5; i++) if ((await runSlice({ ...deps(graph), store }, id)).kind === 'done') break
    expect(graph.sent).toHaveLength(count)
    // The slice's start and the job's end aside, a message is its next step, its claim and its record.
    expect(statements).toBeLessThanOrEqual(4 * count + 20)
  })

  it('writes each recipient’s first name where the text takes it, the fallback word without a name', async () => {
    const { id, who } = await job(3, { message: 'Hola {first name}!', name_fallback: 'amigo' })
    await handOver(id, who.user.id, {})
    const graph = new FakeGraph()
    for (let i = 0; i < 5; i++) if ((await runSlice(deps(graph), id)).kind === 'done') break
    expect(graph.sent).toEqual([
      { recipientId: 'r0', text: 'Hola R0!' },
      { recipientId: 'r1', text: 'Hola R1!' },
      { recipientId: 'r2', text: 'Hola amigo!' },
    ])
  })

  it('sends with the branded footer from the hand-over’s branded start on, and plain before it', async () => {
    const { id, who } = await job(4)
    // The owner allowed branded messages for the part beyond the allowance.
    await t.app.store.query('UPDATE messages SET branded_messages_amount = 2 WHERE id = $1', [id])
    await handOver(id, who.user.id, { branded_from: 2 })
    const graph = new FakeGraph()
    for (let i = 0; i < 6; i++) if ((await runSlice(deps(graph), id)).kind === 'done') break
    expect(graph.sent).toEqual([
      { recipientId: 'r0', text: 'Hi' },
      { recipientId: 'r1', text: 'Hi' },
      { recipientId: 'r2', text: 'Hi' + BRANDED_FOOTER },
      { recipientId: 'r3', text: 'Hi' + BRANDED_FOOTER },
    ])
  })

  it('moves the lease at each hand-over: a stale one is refused, a taken-back job sends nothing more', async () => {
    const { id, who } = await job(4)
    expect(await handOver(id, who.user.id, {})).toEqual({ lease: 1 })
    await expect(handOver(id, who.user.id, {})).rejects.toThrow(/handed over already/)
    const { takeBack } = await import('./jobs.ts')
    const back = await takeBack(t.app.store, who.user.id, id)
    expect(back).toMatchObject({ lease: 2, sender: 'device', uncertain: [] })
    const graph = new FakeGraph()
    expect(await runSlice(deps(graph), id)).toEqual({ kind: 'done', why: 'lost' })
    expect(graph.sent).toEqual([])
    expect(await t.app.store.query('SELECT 1 FROM message_page_tokens WHERE message_id = $1', [id])).toEqual(
      [],
    )
  })

  it("waits the pacing's shortest wait from the hand-over, whatever earlier wait the device reports", async () => {
    const { handOver: give } = await import('./jobs.ts')
    const nextSendAt = async (id: string) =>
      (
        await t.app.store.query<{ at: Date }>('SELECT next_send_at AS at FROM messages WHERE id = $1', [id])
      )[0]!.at.getTime()
    const body = { page_token: 'page-token-secret', cursor: 0, results: [], uncertain: [] }
    const cases = [
      // A closing page's wait, read before its last send: already past.
      { reported: 1_000, kept: 50_800 },
      // A longer wait the device was in is kept.
      { reported: 60_000, kept: 60_000 },
    ]
    for (const { reported, kept } of cases) {
      const { id, who } = await job(3)
      const handedOver = { ...body, lease: 0, next_send_at: reported }
      await give(t.app.store, box, who.user.id, id, handedOver, 800, () => 50_000)
      expect(await nextSendAt(id)).toBe(kept)
    }
  })

  it("never sends twice nor skips: the device's results stay, a send of an earlier run in flight is awaited", async () => {
    const { id, who } = await job(6)
    const touch = (r: string) => ({ _method: 'PUT', status: 'OK', recipient_id: r, sent_as_branded: false })
    await handOver(id, who.user.id, { cursor: 2, results: [touch('r0'), touch('r1')] })
    // An earlier run (an instance taken as dead) claimed r2 and its Graph call may still land.
    await t.app.store.query(
      "UPDATE message_recipients SET attempt_at = now() WHERE message_id = $1 AND recipient_id = 'r2'",
      [id],
    )
    await t.app.store.query("UPDATE messages SET busy_until = now() + interval '45 seconds' WHERE id = $1", [
      id,
    ])
    const graph = new FakeGraph()
    const first = await runSlice(deps(graph), id)
    expect(first.kind).toBe('continue')
    // Looked for once (not arrived yet), then left to land: nothing sent meanwhile.
    expect(graph.sent).toEqual([])
    expect(graph.reads).toBe(1)
    // It landed and was recorded (its run's touch); the in-flight mark went with it.
    const { touch: record } = await import('../repo/touch.ts')
    await record(t.app.store, who.user.id, id, { status: 'OK', recipient_id: 'r2', sent_as_branded: false })
    await t.app.store.query('UPDATE messages SET busy_until = NULL, next_send_at = NULL WHERE id = $1', [id])
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(graph, events), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(graph.sent.map((s) => s.recipientId)).toEqual(['r3', 'r4', 'r5'])
    const rows = await t.app.store.query<{ status: string }>(
      'SELECT status FROM message_recipients WHERE message_id = $1',
      [id],
    )
    expect(rows.every((r) => r.status === 'OK')).toBe(true)
    expect(events).toEqual([{ kind: 'finished', messageId: id, sent: 6 }])
    expect(await t.app.store.query('SELECT 1 FROM message_page_tokens WHERE message_id = $1', [id])).toEqual(
      [],
    )
  })

  it("a closing page's hand-over without a cursor: reserved sends are what may have gone, else the few after the last result", async () => {
    const touch = (r: string) => ({ _method: 'PUT', status: 'OK', recipient_id: r, sent_as_branded: false })
    const uncertain = async (id: string) =>
      (
        await t.app.store.query<{ recipient_id: string }>(
          `SELECT recipient_id FROM message_recipients WHERE message_id = $1 AND status IS NULL
             AND attempt_at IS NOT NULL ORDER BY seq`,
          [id],
        )
      ).map((r) => r.recipient_id)
    // A device that reserved each send: r0 and r1 reserved and recorded, r2 reserved only.
    const reserving = await job(9)
    await t.app.store.query(
      "UPDATE message_recipients SET attempt_at = now() WHERE message_id = $1 AND recipient_id IN ('r0', 'r1', 'r2')",
      [reserving.id],
    )
    await handOver(reserving.id, reserving.who.user.id, {
      cursor: undefined,
      results: [touch('r0'), touch('r1')],
    })
    expect(await uncertain(reserving.id)).toEqual(['r2'])
    // A device that reserved nothing: the five after its last result may have gone out.
    const plain = await job(9)
    await handOver(plain.id, plain.who.user.id, { cursor: undefined, results: [touch('r0'), touch('r1')] })
    expect(await uncertain(plain.id)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6'])
  })

  it('pauses on an expired token, sends nothing more, and tells the owner', async () => {
    const { id, who } = await job(3)
    await handOver(id, who.user.id, {})
    const graph = new FakeGraph()
    graph.failWith = new GraphError({ kind: 'auth', message: 'Error validating access token', code: 190 })
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(graph, events), id)).toEqual({ kind: 'done', why: 'needs_token' })
    expect(events).toEqual([{ kind: 'needs_token', messageId: id, pageId: expect.any(String) }])
    const row = (
      await t.app.store.query<{ server_state: string; state: string }>(
        'SELECT server_state, state FROM messages WHERE id = $1',
        [id],
      )
    )[0]
    expect(row).toEqual({ server_state: 'needs_signin', state: 'open' })
    // The recipient it tried is pending again, not uncertain nor lost.
    const pending = await t.app.store.query(
      'SELECT 1 FROM message_recipients WHERE message_id = $1 AND status IS NULL AND attempt_at IS NULL',
      [id],
    )
    expect(pending).toHaveLength(3)
  })

  it('rejects a recipient only for transient errors: throttled tries before one server error count for nothing', async () => {
    const { id, who } = await job(1)
    await handOver(id, who.user.id, {})
    const graph = new FakeGraph()
    const throttled = () =>
      new GraphError({
        kind: 'throttle',
        message: 'Calls to this api have exceeded the rate limit.',
        code: 613,
      })
    graph.failNext = [
      throttled(),
      throttled(),
      throttled(),
      throttled(),
      new GraphError({ kind: 'transient', message: 'An unexpected error has occurred.', code: 2 }),
    ]
    for (let i = 0; i < 12 && graph.sent.length === 0; i++) {
      await t.app.store.query('UPDATE messages SET next_send_at = NULL WHERE id = $1', [id])
      await runSlice(deps(graph), id, 200)
    }
    expect(graph.failNext).toEqual([])
    expect(graph.sent.map((s) => s.recipientId)).toEqual(['r0'])
    const row = (
      await t.app.store.query<{ status: string; failures: number }>(
        'SELECT status, failures FROM message_recipients WHERE message_id = $1',
        [id],
      )
    )[0]
    expect(row).toEqual({ status: 'OK', failures: 1 })
  })

  it('stops the job naming the marketing error when the campaign budget is spent, and refuses a lost subscriber alone', async () => {
    const { id, who } = await job(3)
    await handOver(id, who.user.id, {})
    const graph = new FakeGraph()
    graph.failWith = new GraphError({
      kind: 'recipient_gone',
      message: 'The subscription token you passed in could not be loaded.',
      code: 2300004,
      marketing: 'invalid_token',
    })
    await runSlice(deps(graph), id)
    const refused = await t.app.store.query<{ error_data: unknown }>(
      `SELECT error_data FROM message_recipients WHERE message_id = $1 AND status = 'NG'`,
      [id],
    )
    expect(refused.length).toBeGreaterThan(0)
    expect(JSON.stringify(refused[0]!.error_data)).toContain('marketing:invalid_token')

    const second = await job(3)
    await handOver(second.id, second.who.user.id, {})
    graph.failWith = new GraphError({
      kind: 'config',
      message: 'This campaign has reached its lifetime budget.',
      code: 2300053,
      marketing: 'budget_spent',
    })
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(graph, events), second.id)).toEqual({ kind: 'done', why: 'stopped' })
    const row = (
      await t.app.store.query<{ state: string; stop_reason: string }>(
        'SELECT state, stop_reason FROM messages WHERE id = $1',
        [second.id],
      )
    )[0]
    expect(row).toEqual({ state: 'stopped', stop_reason: 'marketing:budget_spent' })
    expect(events).toContainEqual({ kind: 'stopped', messageId: second.id, reason: 'marketing:budget_spent' })
  })

  it("publishes its progress on the owner's stream: at most one event every 2 s, one at the end, the newest kept", async () => {
    const { id, who } = await job(6)
    await handOver(id, who.user.id, {})
    const announced: number[] = []
    const stop = await t.app.store.listen(EVENTS_CHANNEL, (payload) => {
      for (const e of parseNotifyPayload(payload)) if (e.userId === who.user.id) announced.push(e.id)
    })
    // A clock the pacing moves: 800 ms between sends (random 0, pacing unscaled), so results at 0, 0.8 … 4 s.
    let clock = Date.parse('2026-11-23T10:00:00Z')
    // Another database's job of the same id, published just now in this process, holds nothing back here.
    progressMarks({} as Store).set(id, { at: clock, dirty: false })
    const graph = new FakeGraph()
    const outcome = await runSlice(
      {
        ...deps(graph),
        now: () => clock,
        sleep: async (ms) => void (clock += ms),
        pacingScale: 1,
      },
      id,
    )
    expect(outcome).toEqual({ kind: 'done', why: 'finished' })
    // Published at 0 s and 2.4 s (the first result 2 s after the last event), then the end.
    await expect.poll(() => announced.length).toBe(3)
    await stop()
    const kept = await t.app.store.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT id, data FROM owner_events WHERE user_id = $1 AND type = 'bulk_progress'`,
      [who.user.id],
    )
    const [row] = await t.app.store.query<{ lease: number }>(`SELECT lease FROM messages WHERE id = $1`, [id])
    expect(kept).toEqual([
      {
        id: announced[2],
        data: {
          pageId: expect.any(String),
          messageId: id,
          sent: 6,
          rejected: 0,
          skipped: 0,
          total: 6,
          state: 'finished',
          sender: 'server',
          // The lease it was published under: a device tells a late event of an earlier hand-over by it.
          lease: row!.lease,
        },
      },
    ])
  })
})
