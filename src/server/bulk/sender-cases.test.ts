/**
 * The senders' shared cases (shared/bulk/core/sender-cases.test-kit.ts) on the server's store, SQL: PGlite
 * always, PostgreSQL with TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { senderCases, ScriptedGraph } from '../../shared/bulk/core/sender-cases.test-kit.ts'
import { type TestApp, bulkJobWithRecipients, onEveryStore, startTestApp } from '../testing/harness.ts'
import { handOver } from './jobs.ts'
import { runSlice } from './server-sender.ts'
import { tokenBox } from './token-box.ts'

onEveryStore('the sender cases on the server', (kind) => {
  let t: TestApp
  let n = 0
  const box = tokenBox(randomBytes(32))
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'false' })
  })
  afterAll(() => t.close())

  it.each(senderCases)('$name', async (c) => {
    const fb = `${kind === 'pglite' ? 9 : 4}30${++n}`
    const { id, who } = await bulkJobWithRecipients(t.app, fb, c.recipients, { prefix: '' })
    await handOver(t.app.store, box, who.user.id, id, {
      lease: 0,
      page_token: 'page-token',
      cursor: 0,
      results: [],
      uncertain: [],
    })
    const graph = new ScriptedGraph(fb, [...c.faults], (r) => `c${r}`)
    const deps = {
      store: t.app.store,
      graph,
      box,
      notify: async () => undefined,
      now: Date.now,
      random: () => 0,
      sleep: async () => undefined,
      pacingScale: 0.001,
      settleMs: 0,
    }
    let outcome = await runSlice(deps, id)
    for (let slices = 0; outcome.kind === 'continue' && slices < 50; slices++) {
      // The backoffs pass at once.
      await t.app.store.query('UPDATE messages SET next_send_at = NULL WHERE id = $1', [id])
      outcome = await runSlice(deps, id)
    }
    expect(outcome).toEqual({ kind: 'done', why: c.expect.state })
    expect(graph.delivered.map((d) => Number(d.recipientId))).toEqual(c.expect.delivered)
    const row = (
      await t.app.store.query<{
        state: string
        ok_count: number
        ng_count: number
        stop_reason: string | null
      }>('SELECT state, ok_count, ng_count, stop_reason FROM messages WHERE id = $1', [id])
    )[0]
    expect(row).toMatchObject({
      state: c.expect.state,
      ok_count: c.expect.delivered.length,
      ng_count: c.expect.rejected,
    })
    if (c.expect.stopReason) expect(row?.stop_reason).toBe(c.expect.stopReason)
  })
})
