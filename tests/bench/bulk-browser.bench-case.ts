/**
 * In Chromium: writing a 100,000-recipient job to Dexie (the job and its audience in chunks, one transaction,
 * as a job starts), and the sender's own cost per message with the pacing off and a Graph and API that answer
 * at once. Prints `BENCH name=value`.
 */
import { test } from 'vitest'
import {
  claimLease,
  writeJob,
  type AudienceMember,
  type JobRecord,
  type RecipientRecord,
} from '../../src/device/bulk/records.ts'
import { runJob } from '../../src/worker/run-job.ts'
import { FakeApi, FakeGraph, jobRecord, makeDeps, resetDb, seedJob } from '../../src/worker/testing/fakes.ts'
import { subscription } from '../../src/core/testing/session.ts'

const N = 100_000
const PIPELINE_N = 2_000

test('bulk sender figures', async () => {
  await resetDb()
  const job: JobRecord = jobRecord({
    id: 'bench',
    pageId: '100',
    pageName: 'Bench',
    total: N,
    state: 'paused',
    recipientsSynced: undefined,
  })
  const audience: AudienceMember[] = Array.from({ length: N }, (_, i) => ({
    recipientId: String(1_000_000 + i),
    name: `Customer ${i}`,
    conversationId: `t_${i}`,
  }))
  const t0 = performance.now()
  await writeJob(job, audience)
  console.log(`BENCH dexie_write_100k_ms=${(performance.now() - t0).toFixed(0)}`)
  await resetDb()
  // The floor of the previous model (one row per recipient, through bare IndexedDB), for comparison.
  const list: RecipientRecord[] = audience.map((m, order) => ({
    key: `bench:${m.recipientId}`,
    jobId: 'bench',
    ...m,
    order,
    state: 'pending',
    attempts: 0,
  }))
  console.log(`BENCH raw_indexeddb_write_100k_ms=${(await rawWrite(list)).toFixed(0)}`)

  await seedJob(PIPELINE_N, { id: 'pipe' })
  const graph = new FakeGraph()
  const api = new FakeApi(subscription(1_000_000))
  const deps = makeDeps(graph, api, { pacingScale: 0, sleep: () => Promise.resolve() })
  const t1 = performance.now()
  await runJob(deps, 'pipe', (await claimLease('pipe'))!)
  const per = (performance.now() - t1) / PIPELINE_N
  if (graph.delivered.length !== PIPELINE_N) throw new Error('the pipeline did not send to everyone')
  console.log(`BENCH pipeline_ms_per_message=${per.toFixed(2)}`)
  await resetDb()
})

/** The same rows with the same indexes through the bare IndexedDB API: the floor Dexie is compared with. */
async function rawWrite(list: RecipientRecord[]): Promise<number> {
  const name = `raw-bench-${Math.random()}`
  const idb = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(name, 1)
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore('r', { keyPath: 'key' })
      store.createIndex('a', ['jobId', 'order'])
      store.createIndex('b', ['jobId', 'state', 'order'])
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  const t0 = performance.now()
  await new Promise<void>((resolve, reject) => {
    const tx = idb.transaction('r', 'readwrite')
    const store = tx.objectStore('r')
    for (const row of list) store.add(row)
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
  })
  const ms = performance.now() - t0
  idb.close()
  indexedDB.deleteDatabase(name)
  return ms
}
