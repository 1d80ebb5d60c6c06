/**
 * Server-held jobs run on pg-boss, a queue engine on PostgreSQL (its tables in the `pgboss` schema of the
 * product's database). Every instance works the queue: a job's runs ("slices", ./server-sender.ts) are queue
 * jobs keyed by the message id under the `stately` policy, so at most one slice of a message is active and one
 * waits, whichever instance holds it. A slice lasts at most SLICE_MS (JOB_SLICE_SECONDS); if its instance dies,
 * pg-boss expires it after twice that plus 10 s (queueTimings) and its maintenance (run by one instance at a
 * time) gives it to another: with the default slice a dead instance's job goes on elsewhere within a minute. On PGlite the same code runs in one process through
 * pg-boss's `db.executeSql` adapter.
 * Scheduled sends are queue jobs too, with `startAfter` at the owner's time (./scheduled.ts).
 *
 * Each queue has one poller per instance (startPoller): it fetches as many jobs as it has free slots and
 * runs them side by side. Work this instance queues (a kick, a slice's next run, a retry, a scheduled start)
 * wakes its poller at the job's time; a slow poll (POLL_S) finds what other instances queued and the slices of
 * a dead instance given back, so an idle instance costs the database a statement every few seconds.
 */
import PgBoss from 'pg-boss'
import { databaseClockMs, queueExecutor } from '../db/queue-port.ts'
import type { Store } from '../db/store.ts'
import { LEASE_MS } from '../../core/bulk/lease.ts'
import { takeLapsed } from './lease.ts'
import { runSlice, SLICE_MS, type ServerSenderDeps } from './server-sender.ts'

export const SEND_QUEUE = 'bulk-send'
export const START_QUEUE = 'bulk-scheduled-start'
/** One queue job at a time looks for "keep sending" jobs whose device lease lapsed, then queues the next look. */
export const LAPSE_QUEUE = 'bulk-lapsed-leases'
/** The lapsed leases are looked for every third of the lease, at most every 10 s. */
export function lapseScanMs(leaseMs: number): number {
  return Math.min(10_000, Math.max(1_000, Math.floor(leaseMs / 3)))
}
/** The longest period between the queue's maintenance runs (expiry, handing dead slices back). */
export const MAINTENANCE_S = 10

/**
 * The queue's expiry and maintenance period for slices of `sliceMs`: a slice not completed after twice its
 * length plus 10 s (40 s for the default 15 s slice) is taken as dead, its instance gone, and given to
 * another; maintenance runs four times per expiry, at most every 10 s. Shorter slices hand a dead
 * instance's job over sooner.
 */
export function queueTimings(sliceMs: number): { expireS: number; maintenanceS: number } {
  const expireS = Math.ceil(sliceMs / 1000) * 2 + 10
  return { expireS, maintenanceS: Math.min(MAINTENANCE_S, Math.max(1, Math.floor(expireS / 4))) }
}
/** The slow poll: how soon work queued by another instance, or given back by maintenance, is seen here. */
export const POLL_S = 5
/** A failed slice is retried after this long (pg-boss `retryDelay`). */
const RETRY_DELAY_S = 1
/** How long stopping waits for running slices before handing them back to the queue. */
const STOP_TIMEOUT_MS = 5_000

export interface JobQueue {
  /** Asks for a run of the message's job (now, or at `at`); a run already waiting makes this a no-op. */
  kick(messageId: string, at?: number): Promise<void>
  /** Queues a scheduled start at `at`; answers the queue job's id (to cancel it when the owner edits). */
  schedule(messageId: string, at: number): Promise<string | null>
  cancel(queueJobId: string): Promise<void>
  stop(): Promise<void>
}

export interface QueueOptions {
  store: Store
  databaseUrl?: string | undefined
  sender: ServerSenderDeps
  /** Starts a scheduled job (computes its audience then); see ./scheduled.ts. */
  startScheduled?: (messageId: string) => Promise<void>
  /** Slices run side by side in one instance. */
  concurrency?: number
  sliceMs?: number
  /** The device lease's length (JOB_LEASE_SECONDS): a lapsed one is looked for every third of it. */
  leaseMs?: number
  /** The slow poll's period (POLL_S by default). */
  pollingSeconds?: number
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

/** A local wake-up comes this long after the job's time, so the database's clock has passed it too. */
const WAKE_MARGIN_MS = 20
/** Local wake-ups kept per queue: beyond them (the farthest), the slow poll finds the jobs. */
const MAX_WAKES = 1_000
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1

type Log = NonNullable<QueueOptions['log']>

interface PollerOptions<T> {
  boss: PgBoss
  name: string
  /** Jobs run side by side; a fetch asks for as many as there are free slots. */
  capacity: number
  pollMs: number
  retryDelayMs: number
  /** How far the database's clock is behind this one. */
  dbLagMs: number
  /** Runs a job; answers when the queue should be looked at again for work it queued (epoch ms), if any. */
  run(job: PgBoss.Job<T>): Promise<number | undefined>
  log?: Log
}

interface Poller {
  /**
   * Looks for jobs at `at` (epoch ms on this clock), the `startAfter` this instance gave them; 0 (or a time
   * past) for jobs it queued to start at once.
   */
  wakeAt(at: number): void
  /** Stops fetching, waits for the running jobs up to `timeoutMs`, then hands the rest back to the queue. */
  stop(timeoutMs: number): Promise<void>
}

/**
 * One queue's worker on this instance. A job fetched is active (no other instance takes it) until it is
 * completed or failed here, or expires after its `expireInSeconds` if this instance dies; as pg-boss's own
 * workers do, a job running longer than that is failed (and so retried).
 */
function startPoller<T>(o: PollerOptions<T>): Poller {
  const running = new Map<string, Promise<void>>()
  let stopping = false
  let fetching: Promise<void> | undefined
  let again = false
  let pollTimer: NodeJS.Timeout | undefined
  let wakeTimer: NodeJS.Timeout | undefined
  const wakes: number[] = []

  const fill = async () => {
    do {
      again = false
      const free = o.capacity - running.size
      // A finishing job wakes the poller again.
      if (free <= 0) return
      let jobs: PgBoss.Job<T>[]
      try {
        jobs = await o.boss.fetch<T>(o.name, { batchSize: free })
      } catch (err) {
        o.log?.error({ err: String(err), queue: o.name }, 'job queue fetch failed')
        return
      }
      for (const job of jobs) begin(job)
      // A full batch may have left more behind.
      if (jobs.length === free) again = true
    } while (again && !stopping)
  }

  const wake = () => {
    if (stopping) return
    if (fetching) {
      again = true
      return
    }
    fetching = fill().finally(() => {
      fetching = undefined
      if (stopping) return
      clearTimeout(pollTimer)
      pollTimer = setTimeout(wake, o.pollMs)
      pollTimer.unref()
    })
  }

  const armWake = () => {
    clearTimeout(wakeTimer)
    const next = wakes[0]
    if (next === undefined || stopping) return
    wakeTimer = setTimeout(
      () => {
        const now = Date.now() - o.dbLagMs - WAKE_MARGIN_MS
        while (wakes.length > 0 && wakes[0]! <= now) wakes.shift()
        wake()
        armWake()
      },
      Math.min(Math.max(0, next + o.dbLagMs + WAKE_MARGIN_MS - Date.now()), MAX_TIMER_MS),
    )
    wakeTimer.unref()
  }

  const wakeAt = (at: number) => {
    if (stopping) return
    if (at + o.dbLagMs <= Date.now()) return wake()
    let i = wakes.length
    while (i > 0 && wakes[i - 1]! > at) i--
    wakes.splice(i, 0, at)
    if (wakes.length > MAX_WAKES) wakes.pop()
    if (i === 0) armWake()
  }

  function begin(job: PgBoss.Job<T>) {
    const done = (async () => {
      let next: number | undefined
      let timer: NodeJS.Timeout | undefined
      try {
        const limit = Math.max(1, Number(job.expireInSeconds)) * 1000
        next = await Promise.race([
          o.run(job),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`handler execution exceeded ${limit}ms`)), limit)
          }),
        ])
      } catch (err) {
        clearTimeout(timer)
        try {
          await o.boss.fail(o.name, job.id, { message: String((err as Error)?.message ?? err) })
          // Retried after the delay by the database's clock.
          next = Date.now() - o.dbLagMs + o.retryDelayMs
        } catch (failErr) {
          // The job expires and is retried.
          o.log?.error({ err: String(failErr), queue: o.name }, 'job queue could not fail a job')
        }
        return next
      }
      clearTimeout(timer)
      try {
        await o.boss.complete(o.name, job.id)
      } catch (err) {
        // The job expires and runs again: the sender's lease makes a second run harmless.
        o.log?.error({ err: String(err), queue: o.name }, 'job queue could not complete a job')
      }
      return next
    })().then(
      (next) => {
        running.delete(job.id)
        if (next !== undefined) wakeAt(next)
        wake()
      },
      () => {
        running.delete(job.id)
      },
    )
    running.set(job.id, done)
  }

  // The first look: work queued while no instance ran.
  wake()
  return {
    wakeAt,
    async stop(timeoutMs) {
      stopping = true
      clearTimeout(pollTimer)
      clearTimeout(wakeTimer)
      await fetching
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        Promise.allSettled(running.values()),
        new Promise((r) => (timer = setTimeout(r, timeoutMs))),
      ])
      clearTimeout(timer)
      // Handed back now rather than when they expire (retried after the retry delay, by any instance).
      for (const id of running.keys()) {
        await o.boss.fail(o.name, id, { message: 'pg-boss shut down while active' }).catch(() => undefined)
      }
    },
  }
}

export async function startJobQueue(options: QueueOptions): Promise<JobQueue> {
  const { store } = options
  const timings = queueTimings(options.sliceMs ?? SLICE_MS)
  const boss = new PgBoss({
    ...(options.databaseUrl
      ? { connectionString: options.databaseUrl, max: 4 }
      : { db: { executeSql: queueExecutor(store) } }),
    maintenanceIntervalSeconds: timings.maintenanceS,
    monitorStateIntervalSeconds: 60,
    application_name: 'pagecast-jobs',
  } as ConstructorParameters<typeof PgBoss>[0])
  boss.on('error', (err) => options.log?.error({ err: String(err) }, 'job queue error'))
  await boss.start()
  const queueOptions = {
    policy: 'stately',
    retryLimit: 1_000_000,
    retryDelay: RETRY_DELAY_S,
    expireInSeconds: timings.expireS,
  }
  for (const name of [SEND_QUEUE, START_QUEUE, LAPSE_QUEUE]) {
    const existing = await boss.getQueue(name)
    // Made by an instance with another slice length: the expiry follows this one's.
    if (existing && existing.expireInSeconds !== timings.expireS)
      await boss.updateQueue(name, { name, ...queueOptions } as PgBoss.Queue)
    if (!existing) {
      try {
        await boss.createQueue(name, { name, ...queueOptions } as PgBoss.Queue)
      } catch (err) {
        // Another instance created it at the same moment.
        if (!(await boss.getQueue(name))) throw err
      }
    }
  }
  // A job's start is compared with the database's clock: a local wake-up waits for that clock to pass it too.
  // The database read its clock before this answer came: the smallest of these bounds is nearest the lag.
  let dbLagMs = Number.POSITIVE_INFINITY
  for (let i = 0; i < 3; i++) {
    const clock = await databaseClockMs(store)
    dbLagMs = Math.min(dbLagMs, Date.now() - (clock ?? Date.now()))
  }
  dbLagMs = Math.max(0, Math.ceil(dbLagMs))
  const common = {
    boss,
    pollMs: (options.pollingSeconds ?? POLL_S) * 1000,
    retryDelayMs: RETRY_DELAY_S * 1000,
    dbLagMs,
    ...(options.log ? { log: options.log } : {}),
  }
  /** Queues a slice; answers its start for the poller's wake-up (0: at once). */
  const send = async (messageId: string, at?: number) => {
    const startAfter = at && at > Date.now() ? at : 0
    await boss.send(
      SEND_QUEUE,
      { messageId },
      { singletonKey: messageId, ...(startAfter ? { startAfter: new Date(startAfter) } : {}) },
    )
    return startAfter
  }
  const sendPoller = startPoller<{ messageId: string }>({
    ...common,
    name: SEND_QUEUE,
    capacity: options.concurrency ?? 16,
    run: async (job) => {
      const { messageId } = job.data
      const outcome = await runSlice(options.sender, messageId, options.sliceMs ?? SLICE_MS)
      if (outcome.kind !== 'continue') return undefined
      // The next slice is queued before this one completes (stately allows one waiting beside the active);
      // the poller looks for it once this one has completed, as the active one would keep it from starting.
      return send(messageId, outcome.at)
    },
  })
  const kick = async (messageId: string, at?: number) => {
    sendPoller.wakeAt(await send(messageId, at))
  }
  // The look for lapsed leases: a singleton that queues its next run, so one instance at a time does it.
  const scanMs = lapseScanMs(options.leaseMs ?? LEASE_MS)
  const nextScan = async (at: number) => {
    await boss.send(LAPSE_QUEUE, {}, { singletonKey: 'lapsed', startAfter: new Date(at) })
    return at
  }
  const lapsePoller = startPoller<object>({
    ...common,
    name: LAPSE_QUEUE,
    capacity: 1,
    run: async () => {
      for (const id of await takeLapsed(store)) await kick(id)
      return nextScan(Date.now() + scanMs)
    },
  })
  await boss.send(LAPSE_QUEUE, {}, { singletonKey: 'lapsed' })
  lapsePoller.wakeAt(0)
  const start = options.startScheduled
  const startPollerOrNone = start
    ? startPoller<{ messageId: string }>({
        ...common,
        name: START_QUEUE,
        capacity: 1,
        run: async (job) => {
          await start(job.data.messageId)
          await kick(job.data.messageId)
          return undefined
        },
      })
    : undefined
  return {
    kick,
    async schedule(messageId, at) {
      const id = await boss.send(
        START_QUEUE,
        { messageId },
        { singletonKey: messageId, startAfter: new Date(at) },
      )
      startPollerOrNone?.wakeAt(at)
      return id
    },
    async cancel(id) {
      await boss.cancel(START_QUEUE, id)
    },
    async stop() {
      await Promise.all([sendPoller, startPollerOrNone, lapsePoller].map((p) => p?.stop(STOP_TIMEOUT_MS)))
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS })
    },
  }
}
