import { afterEach, describe, expect, it } from 'vitest'
import { db, type BulkJob } from '../../../device/db/db.ts'
import { jobRecord } from '../../../device/testing/bulk-fakes.ts'
import { isBulkSending, whenNotSending } from './send-guard.ts'

const job = (id: string, state: BulkJob['state']): BulkJob =>
  jobRecord({
    id,
    state,
    pageId: 'p1',
    text: 'Hi',
    messagingType: 'UPDATE',
    labels: [],
    total: 10,
    recipientsSynced: undefined,
  })

afterEach(() => db.bulkJobs.clear())

describe('the send guard for updates', () => {
  it('reports sending only while a job is running', async () => {
    await db.bulkJobs.put(job('paused', 'paused'))
    expect(await isBulkSending()).toBe(false)
    await db.bulkJobs.put(job('running', 'running'))
    expect(await isBulkSending()).toBe(true)
  })

  it('resolves once the running job stops', async () => {
    await db.bulkJobs.put(job('j1', 'running'))
    let resolved = false
    const waiting = whenNotSending().then(() => (resolved = true))
    await new Promise((r) => setTimeout(r, 50))
    expect(resolved).toBe(false)
    await db.bulkJobs.update('j1', { state: 'finished' })
    await waiting
    expect(resolved).toBe(true)
  })
})
