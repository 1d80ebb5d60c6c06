/**
 * Server-held jobs run on pg-boss, a queue engine on PostgreSQL (its tables in the `pgboss` schema of the
 * product's database). Every instance works the queue: a job's runs ("slices", ./server-sender.ts) are queue
 * jobs keyed by the message id under the `stately` policy, so at most one slice of a message is active and one
 * waits, whichever instance holds it. A slice lasts at most SLICE_MS; if its instance dies, pg-boss expires it
 * after EXPIRE_S and its maintenance (every MAINTENANCE_S, run by one instance at a time) gives it to another:
 * a dead instance's job goes on elsewhere within a minute. On PGlite the same code runs in one process through
 * pg-boss's `db.executeSql` adapter.
 * Scheduled sends are queue jobs too, with `startAfter` at the owner's time (./scheduled.ts).
 */
import PgBoss from 'pg-boss'
import type { Store } from '../db/store.ts'
import { runSlice, SLICE_MS, type ServerSenderDeps } from './server-sender.ts'

export const SEND_QUEUE = 'bulk-send'
export const START_QUEUE = 'bulk-scheduled-start'
/** A slice not completed after this long is taken as dead (its instance gone) and given to another. */
export const EXPIRE_S = 40
export const MAINTENANCE_S = 10

export interface JobQueue {
  /** Asks for a run of the message's job (now, or at `at`); a run already waiting makes this a no-op. */
  kick(messageId: string, at?: number): Promise<void>
  /** Queues a scheduled start at `at`; answers the queue job's id (to cancel it when the owner edits). */
  schedule(messageId: string, at: number): Promise<string | null>
  cancel(queueJobId: string): Promise<void>
  stop(): Promise<void>
}

/** pg-boss's database port over the store: PGlite runs multi-statement scripts through `exec`. */
function executeSql(store: Store) {
  return async (text: string, values?: unknown[]) => {
    if (values && values.length > 0) return { rows: await store.query(text, values as never[]) }
    try {
      return { rows: await store.query(text) }
    } catch (err) {
      if (!/multiple commands/i.test(String((err as Error).message))) throw err
      await store.exec(text)
      return { rows: [] }
    }
  }
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
  pollingSeconds?: number
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

export async function startJobQueue(options: QueueOptions): Promise<JobQueue> {
  const { store } = options
  const boss = new PgBoss({
    ...(options.databaseUrl
      ? { connectionString: options.databaseUrl, max: 4 }
      : { db: { executeSql: executeSql(store) } }),
    maintenanceIntervalSeconds: MAINTENANCE_S,
    monitorStateIntervalSeconds: 60,
    application_name: 'pagecast-jobs',
  } as ConstructorParameters<typeof PgBoss>[0])
  boss.on('error', (err) => options.log?.error({ err: String(err) }, 'job queue error'))
  await boss.start()
  const queueOptions = { policy: 'stately', retryLimit: 1_000_000, retryDelay: 1, expireInSeconds: EXPIRE_S }
  for (const name of [SEND_QUEUE, START_QUEUE]) {
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, { name, ...queueOptions } as PgBoss.Queue)
      } catch (err) {
        // Another instance created it at the same moment.
        if (!(await boss.getQueue(name))) throw err
      }
    }
  }
  const kick = async (messageId: string, at?: number) => {
    await boss.send(
      SEND_QUEUE,
      { messageId },
      {
        singletonKey: messageId,
        ...(at && at > Date.now() ? { startAfter: new Date(at) } : {}),
      },
    )
  }
  const workOptions = {
    batchSize: 1,
    pollingIntervalSeconds: options.pollingSeconds ?? 1,
  } as PgBoss.WorkOptions
  const workers: string[] = []
  for (let i = 0; i < (options.concurrency ?? 16); i++) {
    workers.push(
      await boss.work<{ messageId: string }>(SEND_QUEUE, workOptions, async ([job]) => {
        const { messageId } = job!.data
        const outcome = await runSlice(options.sender, messageId, options.sliceMs ?? SLICE_MS)
        // The next slice is queued before this one completes: stately allows one waiting beside the active.
        if (outcome.kind === 'continue') await kick(messageId, outcome.at)
      }),
    )
  }
  if (options.startScheduled) {
    const start = options.startScheduled
    workers.push(
      await boss.work<{ messageId: string }>(START_QUEUE, workOptions, async ([job]) => {
        await start(job!.data.messageId)
        await kick(job!.data.messageId)
      }),
    )
  }
  return {
    kick,
    async schedule(messageId, at) {
      return boss.send(START_QUEUE, { messageId }, { singletonKey: messageId, startAfter: new Date(at) })
    },
    async cancel(id) {
      await boss.cancel(START_QUEUE, id)
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 })
    },
  }
}
