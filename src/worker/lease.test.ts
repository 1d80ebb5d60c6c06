/**
 * The device's lease as the sender keeps it: every send reserved on the server under the lease's epoch first,
 * every result carrying that epoch, nothing sent once the server holds the job, and a paused job released so
 * the server does not carry it on.
 */
import { beforeEach, expect, it } from 'vitest'
import { claimLease, jobs } from '../device/bulk/records.ts'
import { runJob } from './run-job.ts'
import { FakeApi, FakeGraph, makeDeps, resetDb, seedJob } from './testing/fakes.ts'

beforeEach(resetDb)

it('reserves each recipient on the server before it is sent, and every result carries the epoch', async () => {
  await seedJob(5, { keepSending: true })
  const graph = new FakeGraph()
  const api = new FakeApi()
  const order: string[] = []
  const reserve = api.reserve.bind(api)
  api.reserve = async (jobId, body) => {
    order.push(`reserve ${body.recipients[0]!.recipient_id}`)
    return reserve(jobId, body)
  }
  graph.onSend = (req) => order.push(`send ${req.recipientId}`)
  const outcome = await runJob(makeDeps(graph, api), 'job1', (await claimLease('job1'))!)
  expect(outcome).toBe('finished')
  expect(order).toEqual(['1', '2', '3', '4', '5'].flatMap((r) => [`reserve ${r}`, `send ${r}`]))
  expect(api.reserved.every((r) => r.epoch === 1)).toBe(true)
  expect([...api.touches.values()].map((t) => t.epoch)).toEqual([1, 1, 1, 1, 1])
  expect((await jobs.get('job1'))?.serverLease).toBe(1)
})

it('sends nothing more once the server took the job, and shows it on the server', async () => {
  await seedJob(6, { keepSending: true })
  const graph = new FakeGraph()
  const api = new FakeApi()
  // The lease lapsed after the second send (the tab froze): the server took the job.
  graph.onSend = () => {
    if (graph.delivered.length === 1) api.leases.set('job1', { epoch: 2, sender: 'server' })
  }
  const outcome = await runJob(makeDeps(graph, api), 'job1', (await claimLease('job1'))!)
  expect(outcome).toBe('paused')
  expect(graph.delivered.map((d) => d.recipientId)).toEqual(['1', '2'])
  expect((await jobs.get('job1'))?.state).toBe('on_server')
})

it('waits out a holder that no longer renews, then takes the lease and sends', async () => {
  await seedJob(3)
  const graph = new FakeGraph()
  const api = new FakeApi()
  let refusals = 2
  const lease = api.lease.bind(api)
  api.lease = async (jobId, body) => (refusals-- > 0 ? { kind: 'elsewhere' } : lease(jobId, body))
  const outcome = await runJob(makeDeps(graph, api), 'job1', (await claimLease('job1'))!)
  expect(outcome).toBe('finished')
  expect(graph.delivered.map((d) => d.recipientId)).toEqual(['1', '2', '3'])
})

it('sends nothing while another device keeps the lease, and pauses once it held it a whole lease', async () => {
  await seedJob(3)
  const graph = new FakeGraph()
  const api = new FakeApi()
  api.lease = async () => ({ kind: 'elsewhere' })
  // Each look at the clock is five seconds later.
  let clock = Date.now()
  const deps = makeDeps(graph, api, { now: () => (clock += 5_000) })
  const outcome = await runJob(deps, 'job1', (await claimLease('job1'))!)
  expect(outcome).toBe('paused')
  expect(graph.delivered).toEqual([])
  expect(await jobs.get('job1')).toMatchObject({ state: 'paused', stopReason: 'held_elsewhere' })
})

it('gives up "keep sending" on the server when the owner pauses the job', async () => {
  await seedJob(4, { keepSending: true })
  const graph = new FakeGraph()
  const api = new FakeApi()
  const bodies: unknown[] = []
  const lease = api.lease.bind(api)
  api.lease = async (jobId, body) => {
    bodies.push(body)
    return lease(jobId, body)
  }
  graph.onSend = () => void jobs.update('job1', { state: 'paused' })
  const outcome = await runJob(makeDeps(graph, api), 'job1', (await claimLease('job1'))!)
  expect(outcome).toBe('paused')
  expect(bodies.at(0)).toMatchObject({ epoch: null, keep_sending: true, page_token: 'page-token' })
  expect(bodies.at(-1)).toEqual({ epoch: 1, keep_sending: false })
})
