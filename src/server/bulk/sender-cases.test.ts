/**
 * The senders' shared cases (core/testing/sender-cases.ts) on the server's store, SQL: PGlite
 * always, PostgreSQL with TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { caseClock, senderCases, ScriptedGraph, type CaseStore } from '../../core/testing/sender-cases.ts'
import { type TestApp, onEveryStore, serverSentJob, startTestApp } from '../testing/harness.ts'
import type { Store } from '../db/store.ts'
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
    const { id } = await serverSentJob(t.app, box, fb, c.recipients)
    let failRecord = false
    // The touch that records a result fails once as a deadlock's victim would (PostgreSQL's 40P01).
    const sql: Store = {
      ...t.app.store,
      query: (text, params) => {
        if (failRecord && text.includes('WITH watermarks AS')) {
          failRecord = false
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }))
        }
        return t.app.store.query(text, params)
      },
    }
    const store: CaseStore = {
      failNextRecord: () => {
        failRecord = true
      },
      moveLease: async () => {
        await sql.query('UPDATE messages SET lease = lease + 1 WHERE id = $1', [id])
      },
      // The owner's pause of a job the server sends: the device takes it back.
      pause: async () => {
        await sql.query(`UPDATE messages SET sender = 'device' WHERE id = $1`, [id])
      },
    }
    const graph = new ScriptedGraph(fb, [...c.faults], (r) => `c${r}`, store)
    const deps = {
      store: sql,
      graph,
      box,
      notify: async () => undefined,
      ...caseClock(c, graph, store),
      random: () => 0,
      pacingScale: 0.001,
      settleMs: 0,
    }
    let outcome = await runSlice(deps, id)
    const lost: number[] = []
    for (let slices = 0; slices < 50; slices++) {
      if (outcome.kind === 'done' && outcome.why === 'lost' && c.expect.state !== 'paused') {
        const sent = await sql.query<{ ok_count: number }>('SELECT ok_count FROM messages WHERE id = $1', [
          id,
        ])
        lost.push(sent[0]!.ok_count)
      } else if (outcome.kind !== 'continue') break
      // The backoffs pass at once.
      await sql.query('UPDATE messages SET next_send_at = NULL WHERE id = $1', [id])
      outcome = await runSlice(deps, id)
    }
    expect(lost).toEqual(c.expect.lostAt ?? [])
    expect(outcome).toEqual({ kind: 'done', why: c.expect.state === 'paused' ? 'lost' : c.expect.state })
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
      state: c.expect.state === 'paused' ? 'open' : c.expect.state,
      ok_count: c.expect.delivered.length,
      ng_count: c.expect.rejected,
    })
    if (c.expect.stopReason) expect(row?.stop_reason).toBe(c.expect.stopReason)
  })
})
