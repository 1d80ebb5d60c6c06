import { beforeEach, describe, expect, it } from 'vitest'
import { claimNext, type Claim } from './claim.ts'
import { backToPending, skipRest } from '../device/bulk/job-steps.ts'
import {
  chunks,
  claimLease,
  jobs,
  recipients,
  writeJob,
  type RecipientRecord,
} from '../device/bulk/records.ts'
import { runJob } from './run-job.ts'
import { syncRecipients } from '../device/bulk/sync-recipients.ts'
import { FakeApi, FakeGraph, makeDeps, resetDb, seedJob } from './testing/fakes.ts'

beforeEach(resetDb)

const normal = () => 'normal' as const

function claimed(c: Claim) {
  if (c.kind !== 'recipient') throw new Error(`expected a recipient, got ${c.kind}`)
  return c
}

describe('the chunked audience and lazy recipient states', () => {
  it('stores the audience in chunks and writes a state row only when the sender reaches a recipient', async () => {
    await seedJob(2_500)
    expect(await chunks.count()).toBe(3)
    expect(await recipients.count()).toBe(0)
    const lease = (await claimLease('job1'))!
    const c = claimed(await claimNext('job1', lease, 1_000, normal))
    expect(c.recipient).toMatchObject({
      recipientId: '1',
      order: 0,
      state: 'sending',
      attemptAt: 1_000,
      attempts: 1,
    })
    expect(await recipients.get('job1:1')).toMatchObject({ state: 'sending', attemptAt: 1_000 })
    expect(await jobs.get('job1')).toMatchObject({ cursor: 1, state: 'running' })
    expect(await recipients.count()).toBe(1)
  })

  it('reads across chunk boundaries in order', async () => {
    await seedJob(1_002)
    await jobs.update('job1', { cursor: 999 })
    const lease = (await claimLease('job1'))!
    const ids: string[] = []
    for (let i = 0; i < 3; i++)
      ids.push(claimed(await claimNext('job1', lease, 1, normal)).recipient.recipientId)
    expect(ids).toEqual(['1000', '1001', '1002'])
    expect((await claimNext('job1', lease, 1, normal)).kind).toBe('empty')
  })

  it('takes a recipient sent back for another try before moving the cursor on', async () => {
    await seedJob(5)
    const lease = (await claimLease('job1'))!
    claimed(await claimNext('job1', lease, 1, normal))
    claimed(await claimNext('job1', lease, 1, normal))
    await backToPending('job1:1')
    const again = claimed(await claimNext('job1', lease, 2, normal))
    expect(again.recipient).toMatchObject({ recipientId: '1', attempts: 2, attemptAt: 2 })
    expect((await jobs.get('job1'))?.cursor).toBe(2)
  })

  it('writes nothing for a stale holder or a stop for the allowance', async () => {
    await seedJob(5)
    const lease = (await claimLease('job1'))!
    await claimLease('job1')
    expect((await claimNext('job1', lease, 1, normal)).kind).toBe('stale')
    expect((await claimNext('job1', lease + 1, 1, () => 'stop')).kind).toBe('stop')
    expect(await recipients.count()).toBe(0)
    expect((await jobs.get('job1'))?.cursor).toBe(0)
  })

  it('skips the recipients never reached as one range, with the right count', async () => {
    await seedJob(2_500)
    const lease = (await claimLease('job1'))!
    for (let i = 0; i < 3; i++) claimed(await claimNext('job1', lease, 1, normal))
    await backToPending('job1:2')
    expect(await skipRest('job1', 'no_messages')).toBe(1 + 2_497)
    expect(await jobs.get('job1')).toMatchObject({
      skipped: 2_498,
      cursor: 2_500,
      skippedFrom: 3,
      state: 'stopped',
    })
    expect((await recipients.get('job1:2'))?.state).toBe('skipped')
    expect(await recipients.count()).toBe(3)
  })

  it('gives the server the whole audience, in order, from the chunks', async () => {
    await seedJob(2_100, { recipientsSynced: false })
    const api = new FakeApi()
    expect(await syncRecipients(api, 'job1')).toBe(true)
    const list = api.serverRecipients.get('job1')!
    expect(list).toHaveLength(2_100)
    expect(list[1_500]).toMatchObject({ recipient_id: '1501', name: 'Person 1501', conversation_id: 'c1501' })
  })

  it('still sends a job stored with a row per recipient (written before the chunks)', async () => {
    const job = await seedJob(0, { total: 3, cursor: 3 })
    const rows: RecipientRecord[] = ['1', '2', '3'].map((id, order) => ({
      key: `job1:${id}`,
      jobId: 'job1',
      recipientId: id,
      name: `P${id}`,
      conversationId: `c${id}`,
      order,
      state: 'pending',
      attempts: 0,
    }))
    await writeJob(job, [], rows)
    const graph = new FakeGraph()
    const api = new FakeApi()
    expect(await runJob(makeDeps(graph, api), 'job1', (await claimLease('job1'))!)).toBe('finished')
    expect(['1', '2', '3'].map((id) => graph.sentTo(id))).toEqual([1, 1, 1])
    expect(await jobs.get('job1')).toMatchObject({ sent: 3, state: 'finished' })
  })
})
