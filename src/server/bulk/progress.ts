/**
 * A job's progress on its owner's event stream (`bulk_progress`), whoever sends it: the server's sender after
 * its results (./server-sender.ts), and the API when it records a device's results (routes/recipients.ts) or
 * the job's end. Every device of the owner follows every job live from these events; the device that holds a
 * job shows it from its own database and ignores them.
 */
import { jobMarketingOf, jobProgress } from '../repo/messages.ts'
import { replaceJobProgress } from '../repo/owner-events.ts'
import type { Store } from '../db/store.ts'

/** The owner's open apps hear of a job's progress at most this often (and once more when it ends). */
const PROGRESS_EVERY_MS = 2_000

/** Who sends the job the progress is of. */
export type ProgressSender = 'server' | 'device'

export interface ProgressDeps {
  store: Store
  now(): number
  log?: { warn(obj: object, msg: string): void } | undefined
}

interface ProgressMark {
  at: number
  dirty: boolean
  trailing?: ReturnType<typeof setTimeout>
}

/**
 * Per database and job published from this instance: when its progress was last published, whether results
 * came since, and the timer that publishes a device's last results when no further result comes. Kept per
 * store, since job ids are only unique within one database (a process that serves two, as tests do, must
 * not throttle one database's job by another's).
 */
const marksByStore = new WeakMap<Store, Map<string, ProgressMark>>()

export function progressMarks(store: Store): Map<string, ProgressMark> {
  let marks = marksByStore.get(store)
  if (!marks) marksByStore.set(store, (marks = new Map()))
  return marks
}

/**
 * A result was recorded: the owner's apps hear of it now, or past the throttle with the next result (the
 * server's sender also at its slice's end; a device's results once the throttle's time is up).
 */
export async function progressed(
  deps: ProgressDeps,
  messageId: string,
  sender: ProgressSender = 'server',
): Promise<void> {
  const marks = progressMarks(deps.store)
  const mark = marks.get(messageId)
  const since = mark ? deps.now() - mark.at : Infinity
  if (mark && since < PROGRESS_EVERY_MS) {
    mark.dirty = true
    if (sender === 'device' && !mark.trailing) {
      mark.trailing = setTimeout(() => {
        const now = marks.get(messageId)
        if (now) now.trailing = undefined
        if (now?.dirty) void publishProgress(deps, messageId, sender)
      }, PROGRESS_EVERY_MS - since)
      mark.trailing.unref?.()
    }
    return
  }
  await publishProgress(deps, messageId, sender)
}

/**
 * Publishes the job's counts and state on its owner's event stream (`bulk_progress`) while `sender` sends it,
 * or once it ended; the job's earlier progress events are removed in the same transaction, since the newest
 * supersedes them, so a long send never crowds the owner's other events out of what a reconnecting app is
 * sent. A failure only costs the event.
 */
export async function publishProgress(
  deps: ProgressDeps,
  messageId: string,
  sender: ProgressSender = 'server',
): Promise<void> {
  const marks = progressMarks(deps.store)
  clearTimeout(marks.get(messageId)?.trailing)
  marks.set(messageId, { at: deps.now(), dirty: false })
  try {
    const row = await jobProgress(deps.store, messageId)
    // Sent by the other side now (taken back, or taken by the server after a lapse): that side tells it.
    if (!row || (row.state === 'open' && row.sender !== sender)) return
    // An ended job publishes nothing more unless a late result comes.
    if (row.state !== 'open') marks.delete(messageId)
    const live = ['rate_limited', 'waiting_connection', 'needs_signin'] as const
    const marketing = jobMarketingOf(row)
    const state =
      row.state === 'finished' || row.state === 'stopped'
        ? row.state
        : row.sender === 'server'
          ? (live.find((s) => s === row.server_state) ?? 'running')
          : 'running'
    await replaceJobProgress(deps.store, row.user_id, {
      pageId: row.page_id,
      messageId,
      sent: row.ok_count,
      rejected: row.ng_count,
      skipped: row.skipped_count,
      total: row.total_messages,
      state,
      ...(row.state === 'stopped' && row.stop_reason ? { stopReason: row.stop_reason } : {}),
      ...(marketing ? { marketing } : {}),
      sender: row.sender,
      lease: row.lease,
    })
  } catch (err) {
    deps.log?.warn({ err: String(err), messageId }, 'the progress of a job could not be published')
  }
}
