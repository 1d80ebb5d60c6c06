import { beforeEach, describe, expect, it } from 'vitest'
import { claimLease, jobs, recipients } from '../device/bulk/records.ts'
import { rebuildMissingJobs } from './resume-server.ts'
import { runJob } from './run-job.ts'
import { FakeApi, FakeGraph, makeDeps, PAGE, resetDb } from './testing/fakes.ts'

beforeEach(resetDb)

describe('resuming a job from the server record', () => {
  it('rebuilds a lost job, skips touched recipients and reconciles the uncertain one', async () => {
    const api = new FakeApi()
    const graph = new FakeGraph()
    const t0 = Date.now() - 1000
    api.open = [
      {
        id: '55',
        page_id: PAGE,
        message: 'Hi',
        label: '["all_labels"]',
        total_messages: 12,
        branded_messages_amount: 0,
        created_at: new Date(t0).toISOString(),
        kind: 'standard',
      },
    ]
    await api.putRecipients(
      '55',
      Array.from({ length: 12 }, (_, i) => ({
        recipient_id: String(i + 1),
        name: `P${i + 1}`,
        conversation_id: `c${i + 1}`,
      })),
    )
    // 1-3 delivered and touched; 4 delivered but its touch was lost with the storage.
    for (const id of ['1', '2', '3', '4']) graph.delivered.push({ recipientId: id, text: 'Hi', at: t0 + 10 })
    for (const id of ['1', '2', '3'])
      await api.touch('55', { _method: 'PUT', status: 'OK', recipient_id: id, sent_as_branded: false })

    expect(await rebuildMissingJobs(api, Date.now())).toEqual(['55'])
    expect(await jobs.get('55')).toMatchObject({ state: 'paused', sent: 3, total: 12 })
    expect((await recipients.get('55:4'))?.state).toBe('sending')
    expect(await rebuildMissingJobs(api, Date.now())).toEqual([])

    await jobs.update('55', { state: 'queued' })
    const outcome = await runJob(makeDeps(graph, api), '55', (await claimLease('55'))!)
    expect(outcome).toBe('finished')
    for (let i = 1; i <= 12; i++) expect(graph.sentTo(String(i))).toBe(1)
    expect(api.touches.size).toBe(12)
    expect(api.sub.available_messages).toBe(1000 - 12)
  })
})

describe('resuming a marketing job from the server record', () => {
  it('never sends a marketing job on the device, not even its uncertain tail', async () => {
    const api = new FakeApi()
    const graph = new FakeGraph()
    api.open = [
      {
        id: '77',
        page_id: PAGE,
        message: 'Sale',
        label: '["all_labels"]',
        total_messages: 8,
        branded_messages_amount: 0,
        created_at: new Date(Date.now() - 1000).toISOString(),
        kind: 'marketing',
      },
    ]
    await api.putRecipients(
      '77',
      Array.from({ length: 8 }, (_, i) => ({
        recipient_id: String(i + 1),
        name: `P${i + 1}`,
        conversation_id: `c${i + 1}`,
        way: 'marketing' as const,
      })),
    )
    expect(await rebuildMissingJobs(api, Date.now())).toEqual(['77'])
    expect(await jobs.get('77')).toMatchObject({ kind: 'marketing', state: 'paused' })

    // The owner resumes it as the card's Resume does for any paused job.
    await jobs.update('77', { state: 'queued' })
    const outcome = await runJob(makeDeps(graph, api), '77', (await claimLease('77'))!)
    expect(outcome).toBe('paused')
    expect(graph.delivered).toEqual([])
    expect(api.touches.size).toBe(0)
  })
})
