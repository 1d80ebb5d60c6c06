/**
 * Fencing of the server's own records: a run's result and a take-over of the job's lease never interleave, so
 * no result is written under an epoch that moved on while it was being written.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Queryable, Store } from '../db/store.ts'
import { bulkJobStore, takeLease } from '../repo/bulk-job-store.ts'
import { type TestApp, onEveryStore, serverSentJob, startTestApp } from '../testing/harness.ts'
import { tokenBox } from './token-box.ts'

onEveryStore("the server sender's record and a take-over", (kind) => {
  let t: TestApp
  const box = tokenBox(randomBytes(32))
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'false' })
  })
  afterAll(() => t.close())

  it('a take-over that comes while a result is recorded waits for it, or the result is refused as stale', async () => {
    const fb = kind === 'pglite' ? '9410' : '4410'
    const { id } = await serverSentJob(t.app, box, fb, 2)
    const base = t.app.store
    let recipientId = ''
    let bump: Promise<void> | undefined
    let statusAtTakeOver: string | null | undefined
    // As the record's statement goes out, another run takes the job (as a new slice does): either may lock
    // the job's row first.
    const watch = <Q extends Queryable>(q: Q): Q =>
      ({
        ...q,
        query: async (sql: string, params?: unknown[]) => {
          if (!bump && recipientId && /^\s*WITH msg AS/.test(sql)) {
            bump = takeLease(base, id).then(async () => {
              statusAtTakeOver = (
                await base.query<{ status: string | null }>(
                  'SELECT status FROM message_recipients WHERE message_id = $1 AND recipient_id = $2',
                  [id, recipientId],
                )
              )[0]?.status
            })
          }
          return q.query(sql, params as never)
        },
      }) as Q
    const watched: Store = {
      ...base,
      query: watch(base).query,
      transaction: (fn) => base.transaction((tx) => fn(watch(tx))),
    }
    const store = bulkJobStore(watched, id)
    const epoch = (await takeLease(base, id))!
    const job = (await store.read())!
    const claim = await store.claim(job, epoch)
    if (claim.kind !== 'recipient') throw new Error(`nothing claimed: ${claim.kind}`)
    recipientId = claim.recipient.recipientId
    const result = await store.record(job, claim.recipient, { ok: true, messageId: 'm.1' }, epoch, undefined)
    await bump
    expect(bump).toBeDefined()
    // Recorded only if the take-over came after it; otherwise refused, and the write-ahead left to reconcile.
    if (result === 'stale') expect(statusAtTakeOver).toBeNull()
    else expect([result, statusAtTakeOver]).toEqual(['recorded', 'OK'])
  })
})
