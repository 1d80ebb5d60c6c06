import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { db } from '../../../device/db/db.ts'
import { jobRecord, resetDb } from '../../../device/testing/bulk-fakes.ts'
import { loadBulkReceipts } from './bulk-record.ts'

const record = (id: string, delivered: number, read: number) => ({
  id,
  page_id: 'p1',
  message: 'Sale',
  image_url: null,
  tag: null,
  label: '',
  total_messages: 10,
  branded_messages_amount: 0,
  ok_count: 10,
  ng_count: 0,
  delivered_count: delivered,
  read_count: read,
  state: 'finished',
  stop_reason: null,
  created_at: '2026-11-23T10:00:00.000Z',
})

beforeEach(async () => {
  await Promise.all([resetDb(), db.bulkReceipts.clear()])
})
afterEach(() => vi.restoreAllMocks())

describe("the server record's receipt counts", () => {
  it("are read for this device's bulk jobs, and never lower what the stream already said", async () => {
    await db.bulkJobs.bulkPut([jobRecord({ id: 'j1' }), jobRecord({ id: 'j2' })])
    await db.bulkReceipts.put({ id: 'j2', pageId: 'p1', delivered: 9, read: 4 })
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        Response.json({ data: [record('j1', 6, 3), record('j2', 7, 2), record('other', 5, 5)] }),
      )
    await loadBulkReceipts()
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/v2/messages?state=all')
    expect(await db.bulkReceipts.toArray()).toEqual([
      { id: 'j1', pageId: 'p1', delivered: 6, read: 3 },
      { id: 'j2', pageId: 'p1', delivered: 9, read: 4 },
    ])
  })

  it("give a job the server holds the record's counts and end, and leave the device's own jobs alone", async () => {
    await db.bulkJobs.bulkPut([
      jobRecord({ id: 'j1', state: 'on_server', total: 10, sent: 1 }),
      jobRecord({ id: 'j2', state: 'on_server', total: 10 }),
      jobRecord({ id: 'j3', state: 'running', total: 10, sent: 2 }),
    ])
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      Response.json({
        data: [
          { ...record('j1', 0, 0), state: 'open', sender: 'server', ok_count: 6, ng_count: 1 },
          { ...record('j2', 0, 0), skipped_count: 2, ok_count: 8 },
          { ...record('j3', 0, 0), state: 'open', sender: 'device', ok_count: 5 },
        ],
      }),
    )
    await loadBulkReceipts()
    expect(await db.bulkJobs.get('j1')).toMatchObject({ state: 'on_server', sent: 6, rejected: 1 })
    expect(await db.bulkJobs.get('j2')).toMatchObject({ state: 'finished', sent: 8, skipped: 2 })
    expect(await db.bulkJobs.get('j3')).toMatchObject({ state: 'running', sent: 2 })
  })

  it('leave a job resumed after the read on the server: a record of an earlier lease does not end it', async () => {
    // The record was read while the job was stopped (lease 4); the owner resumed it meanwhile and the server
    // answered the hand-over with lease 5.
    await db.bulkJobs.bulkPut([
      jobRecord({ id: 'j1', state: 'on_server', total: 10, sent: 3, serverLease: 5 }),
      jobRecord({ id: 'j2', state: 'on_server', total: 10, sent: 3, serverLease: 5 }),
    ])
    const stopped = {
      state: 'stopped',
      stop_reason: 'marketing:inactive_campaign',
      ok_count: 3,
      sender: 'server',
    }
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      Response.json({
        data: [
          { ...record('j1', 0, 0), ...stopped, lease: 4 },
          { ...record('j2', 0, 0), ...stopped, lease: 5 },
        ],
      }),
    )
    await loadBulkReceipts()
    expect(await db.bulkJobs.get('j1')).toMatchObject({ state: 'on_server', sent: 3 })
    expect((await db.bulkJobs.get('j1'))?.stopReason).toBeUndefined()
    // The same lease: the server's end is the job's end.
    expect(await db.bulkJobs.get('j2')).toMatchObject({
      state: 'stopped',
      stopReason: 'marketing:inactive_campaign',
    })
  })

  it('cost no call when the device holds no bulk job', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    await loadBulkReceipts()
    expect(fetch).not.toHaveBeenCalled()
  })
})
