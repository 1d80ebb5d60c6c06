/** The senders' shared cases (core/testing/sender-cases.ts) on the device's store, IndexedDB. */
import { beforeEach, expect, it } from 'vitest'
import { caseClock, senderCases, ScriptedGraph, type CaseStore } from '../core/testing/sender-cases.ts'
import { db } from '../device/db/db.ts'
import { claimLease, jobs } from '../device/bulk/records.ts'
import { runJob } from './run-job.ts'
import { FakeApi, makeDeps, PAGE, resetDb, seedJob } from './testing/fakes.ts'

beforeEach(resetDb)

/** The next write of a recipient's result fails once (a storage error after the send went). */
let failRecord = false
db.use({
  stack: 'dbcore',
  name: 'a result write that fails',
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name)
      if (name !== db.bulkRecipients.name) return table
      return {
        ...table,
        mutate: (req) => {
          if (failRecord && req.type === 'put') {
            failRecord = false
            return Promise.reject(new Error('The write failed'))
          }
          return table.mutate(req)
        },
      }
    },
  }),
})

it.each(senderCases)('$name', async (c) => {
  await seedJob(c.recipients)
  const store: CaseStore = {
    failNextRecord: () => {
      failRecord = true
    },
    moveLease: async () => {
      await claimLease('job1')
    },
    pause: async () => {
      await jobs.update('job1', { state: 'paused' })
    },
  }
  const graph = new ScriptedGraph(PAGE, [...c.faults], (id) => `c${id}`, store)
  const api = new FakeApi()
  const deps = makeDeps(graph as never, api, caseClock(c, graph, store))
  let outcome = await runJob(deps, 'job1', (await claimLease('job1'))!)
  const lost: number[] = []
  while (outcome === 'lost' && lost.length < 5) {
    lost.push((await jobs.get('job1'))!.sent)
    outcome = await runJob(deps, 'job1', (await claimLease('job1'))!)
  }
  expect(lost).toEqual(c.expect.lostAt ?? [])
  expect(outcome).toBe(c.expect.state)
  expect(graph.delivered.map((d) => Number(d.recipientId))).toEqual(c.expect.delivered)
  const job = await jobs.get('job1')
  expect(job).toMatchObject({
    state: c.expect.state,
    sent: c.expect.delivered.length,
    rejected: c.expect.rejected,
  })
  if (c.expect.stopReason) {
    expect(job?.stopReason).toBe(c.expect.stopReason)
    expect(api.states.at(-1)?.reason).toBe(c.expect.stopReason)
  }
})
