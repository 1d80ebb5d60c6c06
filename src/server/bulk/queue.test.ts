/**
 * The job queue on PGlite: one poller per queue fetching as many jobs as it has free slots, woken at once by
 * the work this instance queues (a kick, a kick for later, a scheduled start, a retry) rather than found by
 * the slow poll, which the tests set to 30 s so that only the wake-up can explain a start within seconds.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../db/store.ts'
import { openTestStore } from '../testing/harness.ts'
import { type JobQueue, queueTimings, startJobQueue } from './queue.ts'
import { tokenBox } from './token-box.ts'

const SLOW_POLL_S = 30
/**
 * How long a test waits for a job its own instance woke up: well before the slow poll could have found it, and
 * long enough for a machine busy with other suites. The wait is a bound, not a measure of speed.
 */
const WAKE_UP_WAIT_MS = 20_000
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

async function until(check: () => boolean, ms: number) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    await sleep(5)
  }
  return true
}

describe('the job queue (PGlite)', () => {
  let db: { store: Store; close(): Promise<void> }
  let queue: JobQueue | undefined
  beforeAll(async () => {
    db = await openTestStore('pglite')
  })
  afterEach(async () => {
    await queue?.stop()
    queue = undefined
  })
  afterAll(() => db.close())

  /** Every slice's start (the sender taking the job's lease): the job is then lost, so the slice ends. */
  function start(
    options: {
      pollingSeconds?: number | null
      concurrency?: number
      sliceDelayMs?: number
      sliceMs?: number
    } = {},
  ) {
    const slices: { id: string; at: number }[] = []
    const scheduled: { id: string; at: number }[] = []
    const failFirst = new Set<string>()
    let statements = 0
    let fetches = 0
    const counted: Store = {
      ...db.store,
      async query(sql, params) {
        statements++
        if (/SKIP LOCKED/.test(sql)) fetches++
        return db.store.query(sql, params)
      },
      async exec(sql) {
        statements++
        return db.store.exec(sql)
      },
    }
    const senderStore: Store = {
      ...db.store,
      async query<T extends object>(sql: string, params?: readonly unknown[]) {
        const id = String(params?.[0])
        if (!/SET lease = lease \+ 1/.test(sql)) return db.store.query<T>(sql, params as never)
        slices.push({ id, at: Date.now() })
        if (failFirst.delete(id)) throw new Error('the database went away')
        if (options.sliceDelayMs) await sleep(options.sliceDelayMs)
        return [] as T[]
      },
    }
    const ready = startJobQueue({
      store: counted,
      // null: the production default.
      ...(options.pollingSeconds === null ? {} : { pollingSeconds: options.pollingSeconds ?? SLOW_POLL_S }),
      concurrency: options.concurrency ?? 4,
      ...(options.sliceMs ? { sliceMs: options.sliceMs } : {}),
      startScheduled: async (id) => {
        scheduled.push({ id, at: Date.now() })
      },
      sender: {
        store: senderStore,
        box: tokenBox(randomBytes(32)),
        graph: {} as never,
        notify: async () => {},
        now: Date.now,
        random: Math.random,
        sleep,
        pacingScale: 1,
        settleMs: 5_000,
      },
    }).then(async (q) => {
      queue = q
      // The poller's first look is over.
      await sleep(300)
      return q
    })
    return {
      ready,
      slices,
      scheduled,
      failFirst,
      counts: () => ({ statements, fetches }),
    }
  }
  let n = 0
  const nextId = () => `7${++n}${Date.now() % 10_000}`

  it("gives a dead instance's slice to another after twice the slice length plus 10 s", async () => {
    expect(queueTimings(15_000)).toEqual({ expireS: 40, maintenanceS: 10 })
    expect(queueTimings(3_000)).toEqual({ expireS: 16, maintenanceS: 4 })
    expect(queueTimings(1_000)).toEqual({ expireS: 12, maintenanceS: 3 })
    const expiry = async () =>
      (
        await db.store.query<{ name: string; expire_seconds: number }>(
          `SELECT name, expire_seconds FROM pgboss.queue WHERE name IN ('bulk-send', 'bulk-scheduled-start') ORDER BY name`,
        )
      ).map((q) => q.expire_seconds)
    await start().ready
    expect(await expiry()).toEqual([40, 40])
    await queue!.stop()
    // An instance started with shorter slices: the queues follow it.
    await start({ sliceMs: 3_000 }).ready
    expect(await expiry()).toEqual([16, 16])
  })

  it('starts a slice kicked on this instance at once, not at the next poll', async () => {
    const q = start()
    const jobs = await q.ready
    const id = nextId()
    const kicked = Date.now()
    await jobs.kick(id)
    // Long before the slow poll (SLOW_POLL_S), however busy the machine: the local wake-up started it.
    expect(await until(() => q.slices.some((s) => s.id === id), WAKE_UP_WAIT_MS)).toBe(true)
    expect(q.slices.find((s) => s.id === id)!.at - kicked).toBeGreaterThanOrEqual(0)
  })

  it('starts a slice kicked for later at its time', async () => {
    const q = start()
    const jobs = await q.ready
    const id = nextId()
    const at = Date.now() + 1_000
    await jobs.kick(id, at)
    expect(await until(() => q.slices.some((s) => s.id === id), WAKE_UP_WAIT_MS)).toBe(true)
    // Never before its time.
    expect(q.slices.find((s) => s.id === id)!.at - at).toBeGreaterThanOrEqual(0)
  })

  it('starts a scheduled job at its time, then its first slice', async () => {
    const q = start()
    const jobs = await q.ready
    const id = nextId()
    const at = Date.now() + 1_200
    await jobs.schedule(id, at)
    expect(await until(() => q.slices.some((s) => s.id === id), WAKE_UP_WAIT_MS)).toBe(true)
    // Never before its time.
    expect(q.scheduled.find((s) => s.id === id)!.at - at).toBeGreaterThanOrEqual(0)
  })

  it('retries a failed slice after the retry delay', async () => {
    const q = start()
    const jobs = await q.ready
    const id = nextId()
    q.failFirst.add(id)
    await jobs.kick(id)
    expect(await until(() => q.slices.filter((s) => s.id === id).length === 2, 5_000)).toBe(true)
    const [first, second] = q.slices.filter((s) => s.id === id)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900)
    expect(second!.at - first!.at).toBeLessThan(2_500)
  })

  it('runs slices side by side, up to its concurrency, from one poller', async () => {
    const q = start({ concurrency: 3, sliceDelayMs: 1_500 })
    const jobs = await q.ready
    const ids = [nextId(), nextId(), nextId(), nextId()]
    for (const id of ids) await jobs.kick(id)
    expect(await until(() => q.slices.length === 3, 1_000)).toBe(true)
    await sleep(500)
    // The fourth waits for a free slot, then starts as the first slice ends.
    expect(q.slices).toHaveLength(3)
    expect(await until(() => q.slices.length === 4, 2_500)).toBe(true)
  })

  it('costs the database few statements while idle', async () => {
    const q = start({ pollingSeconds: null })
    await q.ready
    const before = q.counts()
    await sleep(3_000)
    const after = q.counts()
    // One poller per queue, each looking every POLL_S (pg-boss's maintenance aside).
    expect(after.fetches - before.fetches).toBeLessThanOrEqual(2)
  })
})
