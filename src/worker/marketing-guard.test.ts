/**
 * Marketing messages are sent by the server only: the browser's worker never sends a recipient whose way is
 * marketing (it pauses the job before writing anything for them), and an opt-in job sends the opt-in request.
 */
import { BROADCAST_METADATA } from '../core/contracts/conversation-states.ts'
import { beforeEach, describe, expect, it } from 'vitest'
import { audienceOf, claimLease, jobs, recipients, writeJob } from '../device/bulk/records.ts'
import { jobRecord } from '../device/testing/bulk-fakes.ts'
import { syncRecipients } from '../device/bulk/sync-recipients.ts'
import type { SendRequest } from '../core/graph/types.ts'
import { runJob, SERVER_ONLY } from './run-job.ts'
import { FakeApi, FakeGraph, makeDeps, resetDb } from './testing/fakes.ts'

beforeEach(resetDb)

async function seedMixed() {
  const job = jobRecord({ total: 3 })
  await writeJob(job, [
    { recipientId: '1', name: 'A', conversationId: 'c1' },
    { recipientId: '2', name: 'B', conversationId: 'c2', way: 'marketing' },
    { recipientId: '3', name: 'C', conversationId: 'c3' },
  ])
  return job
}

describe('the worker and marketing recipients', () => {
  it('keeps each member’s way in the stored audience and gives it to the server', async () => {
    const job = await seedMixed()
    expect((await audienceOf(job.id)).map((m) => m.way ?? 'standard')).toEqual([
      'standard',
      'marketing',
      'standard',
    ])
    await jobs.update(job.id, { recipientsSynced: false })
    const api = new FakeApi()
    expect(await syncRecipients(api, job.id)).toBe(true)
    expect(api.serverRecipients.get(job.id)?.map((r) => (r as { way?: string }).way)).toEqual([
      undefined,
      'marketing',
      undefined,
    ])
  })

  it('never sends a marketing recipient: the job pauses for the server before writing anything for them', async () => {
    const job = await seedMixed()
    const graph = new FakeGraph()
    const lease = (await claimLease(job.id))!
    const outcome = await runJob(makeDeps(graph, new FakeApi()), job.id, lease)
    expect(outcome).toBe('paused')
    expect(graph.delivered.map((d) => d.recipientId)).toEqual(['1'])
    expect(await recipients.get(`${job.id}:2`)).toBeUndefined()
    expect(await jobs.get(job.id)).toMatchObject({ state: 'paused', stopReason: SERVER_ONLY, cursor: 1 })
  })

  it('sends nothing of a job with a campaign budget', async () => {
    const job = jobRecord({
      total: 1,
      marketing: { budgetKind: 'total', budgetMinor: 1000, currency: 'MXN', estimateMinor: 85 },
    })
    await writeJob(job, [{ recipientId: '1', name: 'A', conversationId: 'c1' }])
    const graph = new FakeGraph()
    const lease = (await claimLease(job.id))!
    expect(await runJob(makeDeps(graph, new FakeApi()), job.id, lease)).toBe('paused')
    expect(graph.delivered).toEqual([])
  })

  it('sends an opt-in job as opt-in requests with its title', async () => {
    const job = jobRecord({ total: 2, contentKind: 'optin_request', optinTitle: 'Weekly offers' })
    await writeJob(job, [
      { recipientId: '1', name: 'A', conversationId: 'c1' },
      { recipientId: '2', name: 'B', conversationId: 'c2' },
    ])
    const graph = new FakeGraph()
    const sent: SendRequest[] = []
    graph.onSend = (req) => void sent.push(req)
    const lease = (await claimLease(job.id))!
    expect(await runJob(makeDeps(graph, new FakeApi()), job.id, lease)).toBe('finished')
    expect(sent).toEqual(
      ['1', '2'].map((recipientId) => ({
        recipientId,
        messagingType: 'RESPONSE',
        // Marked as a broadcast: its echo is no answer to the customer.
        metadata: BROADCAST_METADATA,
        optIn: { title: 'Weekly offers', payload: `pagecast_optin:${job.id}` },
      })),
    )
  })

  it("sends a utility job's template with each recipient's first name, the fallback word without one, as a broadcast", async () => {
    const job = jobRecord({
      total: 2,
      kind: 'utility',
      contentKind: 'utility',
      nameFallback: 'amigo',
      utility: {
        name: 'event_reminder',
        language: 'es_MX',
        body: 'Hola {{1}}, {{2}} es el sábado.',
        params: ['{first name}', 'la clase de pasteles'],
      },
    })
    await writeJob(job, [
      { recipientId: '1', name: 'María José', conversationId: 'c1' },
      { recipientId: '2', name: '', conversationId: 'c2' },
    ])
    const graph = new FakeGraph()
    const sent: SendRequest[] = []
    graph.onSend = (req) => void sent.push(req)
    const lease = (await claimLease(job.id))!
    expect(await runJob(makeDeps(graph, new FakeApi()), job.id, lease)).toBe('finished')
    expect(sent).toEqual(
      ['María', 'amigo'].map((first, i) => ({
        recipientId: `${i + 1}`,
        messagingType: 'UTILITY',
        metadata: BROADCAST_METADATA,
        utility: { name: 'event_reminder', language: 'es_MX', params: [first, 'la clase de pasteles'] },
      })),
    )
  })

  it("gives the server each opt-in request's message id, also of one whose answer was lost and is found in the conversation", async () => {
    const job = jobRecord({ total: 2, contentKind: 'optin_request', optinTitle: 'Weekly offers' })
    await writeJob(job, [
      { recipientId: '1', name: 'A', conversationId: 'c1' },
      { recipientId: '2', name: 'B', conversationId: 'c2' },
    ])
    const graph = new FakeGraph()
    // The first request reaches the customer but its answer never comes back.
    graph.faults = ['lost-response']
    const api = new FakeApi()
    const lease = (await claimLease(job.id))!
    expect(await runJob(makeDeps(graph, api), job.id, lease)).toBe('finished')
    expect(graph.delivered.map((d) => [d.recipientId, d.id])).toEqual([
      ['1', 'm1'],
      ['2', 'm2'],
    ])
    expect([...api.touches.values()].map((t) => [t.recipient_id, t.status, t.message_id])).toEqual([
      ['1', 'OK', 'm1'],
      ['2', 'OK', 'm2'],
    ])
  })
})
