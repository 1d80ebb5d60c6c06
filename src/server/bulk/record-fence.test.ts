/**
 * Fencing of the server's own records: a run's result and a take-over of the job's lease never interleave, so
 * no result is written under an epoch that moved on while it was being written.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Queryable, Store } from '../db/store.ts'
import { bulkJobStore, takeLease } from '../repo/bulk-job-store.ts'
import { jobBusyUntil } from '../repo/messages.ts'
import { type TestApp, onEveryStore, serverSentJob, startTestApp } from '../testing/harness.ts'
import { takeBack } from './jobs.ts'
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
          if (!bump && recipientId && /^\s*WITH watermarks AS/.test(sql)) {
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

  it('a send whose job the device took back meanwhile leaves no in-flight mark for the take-back to wait out', async () => {
    const fb = kind === 'pglite' ? '9411' : '4411'
    const { id, who } = await serverSentJob(t.app, box, fb, 2)
    const base = t.app.store
    const store = bulkJobStore(base, id)
    const epoch = (await takeLease(base, id))!
    const job = (await store.read())!
    const claim = await store.claim(job, epoch)
    if (claim.kind !== 'recipient') throw new Error(`nothing claimed: ${claim.kind}`)
    // The message is on its way when the owner takes the job back: the take-back waits for the send.
    expect(await jobBusyUntil(base, id)).not.toBeNull()
    const back = takeBack(base, who.user.id, id, 20)
    await expect
      .poll(
        async () =>
          (await base.query<{ sender: string }>('SELECT sender FROM messages WHERE id = $1', [id]))[0]
            ?.sender,
      )
      .toBe('device')
    // The send comes back; its result is refused (the device holds the job), and its mark goes with it.
    expect(await store.record(job, claim.recipient, { ok: true, messageId: 'm.2' }, epoch, undefined)).toBe(
      'stale',
    )
    expect(await jobBusyUntil(base, id)).toBeNull()
    // So the take-back answers now, not when the mark would have lapsed (45 s, past this test's time).
    expect((await back).sender).toBe('device')
  })
})
