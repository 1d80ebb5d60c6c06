/**
 * A bulk job in SQL as the one sender (core/bulk/machine.ts) runs it on the server: the `messages` row
 * (its lease epoch, the pacing wait `next_send_at`, the in-flight mark `busy_until`) and the `message_recipients`
 * rows (the write-ahead `attempt_at`, the result through the one idempotent touch). Every write of a run is
 * made under its lease epoch: a run whose lease moved on writes nothing.
 */
import { sendMode } from '../../core/bulk/allowance.ts'
import type { Claim, JobStore, MachineJob, MachineRecipient, Outcome } from '../../core/bulk/machine.ts'
import { kindReaches } from '../../core/bulk/kinds.ts'
import type { Store } from '../db/store.ts'
import { BUSY_MS, readJob, type ServerJob } from '../bulk/jobs.ts'
import { JOB_COLUMNS } from './messages.ts'
import { subscriptionJson, toState, type SubscriptionRow } from './subscriptions.ts'
import { AllowanceRefused, LeaseMoved, touch } from './touch.ts'

/** The job's row with the machine's names, and the row itself for what only the server reads. */
export interface SqlJob extends MachineJob {
  row: ServerJob
  /** The owner's binding to the job's page was revoked when the row was read. */
  revoked: boolean
}

type SenderRow = ServerJob & { binding_revoked: boolean }

/** The job's row as the sender reads it, with whether the owner's binding to its page was revoked. */
const SENDER_JOB = `${JOB_COLUMNS}, EXISTS (SELECT 1 FROM user_pages b
    WHERE b.user_id = messages.user_id AND b.page_id = messages.page_id AND b.revoked_at IS NOT NULL) AS binding_revoked`

interface UncertainRow {
  u_recipient_id: string | null
  u_name: string
  u_conversation_id: string | null
  u_attempt_at: Date
  u_image_sent: boolean
  u_attempt_branded: boolean
  u_failures: number
  u_way: 'standard' | 'marketing'
}

interface NextRow {
  recipient_id: string | null
  name: string
  conversation_id: string | null
  failures: number
  image_sent: boolean
  way: 'standard' | 'marketing'
  earlier: number
  subscription: SubscriptionRow | null
}

/**
 * The job's next step in one statement: the first recipient whose send is uncertain (attempted without a
 * result), and the next recipient (the lowest without a result or an attempt), each found by its partial
 * index (only recipients without a result are in it: the cost is the same at the first recipient of a job
 * and at its 50,000th), how many come before it (its position in the list; counted only as far as the
 * branded footer's start for a recipient without one), and the owner's subscription. $1 job, $2 the branded
 * start, $3 the owner.
 */
const NEXT_STEP = `
SELECT u.recipient_id AS u_recipient_id, u.name AS u_name, u.conversation_id AS u_conversation_id,
    u.attempt_at AS u_attempt_at, u.image_sent AS u_image_sent, u.attempt_branded AS u_attempt_branded,
    u.failures AS u_failures, u.way AS u_way,
    n.recipient_id, n.name, n.conversation_id, n.failures, n.image_sent, n.way, n.earlier,
    CASE WHEN n.recipient_id IS NOT NULL THEN ${subscriptionJson('$3')} END AS subscription
  FROM (SELECT 1) one
  LEFT JOIN LATERAL (
    SELECT recipient_id, name, conversation_id, attempt_at, image_sent, attempt_branded, failures, way
      FROM message_recipients WHERE message_id = $1 AND status IS NULL AND attempt_at IS NOT NULL
      ORDER BY seq LIMIT 1) u ON true
  LEFT JOIN LATERAL (
    SELECT r.recipient_id, r.name, r.conversation_id, r.failures, r.image_sent, r.way,
        COALESCE(r.position, (SELECT count(*)::int FROM (SELECT 1 FROM message_recipients o
           WHERE o.message_id = r.message_id AND o.seq < r.seq ORDER BY o.seq LIMIT $2) c)) AS earlier
      FROM message_recipients r
     WHERE r.message_id = $1 AND r.status IS NULL AND r.attempt_at IS NULL
     ORDER BY r.seq LIMIT 1) n ON true`

export type SqlRecipient = MachineRecipient

/** A new run takes the lease: any older run of this job (a slow instance whose slice expired) stops. Answers its epoch. */
export async function takeLease(store: Store, id: string): Promise<number | undefined> {
  return (
    await store.query<{ lease: number }>(
      `UPDATE messages SET lease = lease + 1, server_state = 'running'
        WHERE id = $1 AND sender = 'server' AND state = 'open' AND deleted_at IS NULL RETURNING lease`,
      [id],
    )
  )[0]?.lease
}

function sqlJob(withBinding: SenderRow): SqlJob {
  const { binding_revoked, ...row } = withBinding
  return {
    row,
    revoked: binding_revoked,
    id: row.id,
    pageId: row.page_id,
    kind: row.kind,
    phase: row.sender === 'server' && row.state === 'open' ? 'open' : 'away',
    lease: row.lease,
    nextSendAt: row.next_send_at ? new Date(row.next_send_at).getTime() : 0,
    text: row.message,
    imageUrl: row.image_url ?? undefined,
    attachmentId: row.attachment_id ?? undefined,
    tag: row.tag ?? undefined,
    messagingType: row.messaging_type,
    contentKind: row.content_kind,
    optinTitle: row.optin_title ?? undefined,
    utility: row.utility ?? undefined,
    nameFallback: row.name_fallback ?? undefined,
  }
}

/** `now`: the sender's clock, which the page's pacer is read by (the job's own waits are in it too). */
export function bulkJobStore(
  store: Store,
  id: string,
  now: () => number = Date.now,
): JobStore<SqlJob, SqlRecipient> {
  const clearBusy = (epoch: number) =>
    // Only this run's own mark: a newer run's send may be in flight. A device that took the job back meanwhile
    // sets no mark of its own, and its take-back waits for this one to go. The page's slot this job held for
    // the send is free again (a refused send is no delivery to pace).
    store.query(
      `WITH job AS (
         UPDATE messages SET busy_until = NULL WHERE id = $1 AND (lease = $2 OR sender = 'device') RETURNING page_id
       )
       UPDATE page_pacing p SET next_send_at = LEAST(p.next_send_at, to_timestamp($3::double precision / 1000)),
           holder = NULL
         FROM job WHERE p.page_id = job.page_id AND p.holder = $1`,
      [id, epoch, now()],
    )
  const setNext = (epoch: number, at: number, state: string | null) =>
    // The in-flight mark is left alone (only a recorded or failed send clears it). A throttled page waits as
    // a page: none of its jobs sends before the backoff is over.
    store.query(
      `WITH job AS (
         UPDATE messages SET next_send_at = to_timestamp($3::double precision / 1000),
             server_state = COALESCE($4, server_state)
          WHERE id = $1 AND lease = $2 RETURNING page_id
       )
       INSERT INTO page_pacing (page_id, next_send_at)
         SELECT page_id, to_timestamp($3::double precision / 1000) FROM job WHERE $4 = 'rate_limited'
       ON CONFLICT (page_id) DO UPDATE SET next_send_at = GREATEST(page_pacing.next_send_at, EXCLUDED.next_send_at)`,
      [id, epoch, at, state],
    )
  const ended = (job: SqlJob) => {
    job.phase = 'away'
  }
  const nextStep = async (job: SqlJob) =>
    (
      await store.query<UncertainRow & NextRow>(NEXT_STEP, [
        id,
        Math.max(job.row.branded_from, 0),
        job.row.user_id,
      ])
    )[0]!
  // What the look for an uncertain recipient read of the next one, for the claim that follows it at once.
  let ahead: { job: SqlJob; next: UncertainRow & NextRow } | undefined
  return {
    async read() {
      const row = (
        await store.query<SenderRow>(
          `SELECT ${SENDER_JOB} FROM messages WHERE id = $1 AND deleted_at IS NULL`,
          [id],
        )
      )[0]
      return row && sqlJob(row)
    },

    async uncertain(job) {
      const u = await nextStep(job)
      ahead = undefined
      if (!u.u_recipient_id) {
        ahead = { job, next: u }
        return undefined
      }
      return {
        recipient: {
          recipientId: u.u_recipient_id,
          name: u.u_name,
          conversationId: u.u_conversation_id ?? '',
          way: u.u_way,
          failures: u.u_failures,
          attemptAt: new Date(u.u_attempt_at).getTime(),
          branded: u.u_attempt_branded,
          imageSent: u.u_image_sent,
        },
        busyUntil: job.row.busy_until ? new Date(job.row.busy_until).getTime() : undefined,
      }
    },

    /**
     * The next recipient (read with the look for an uncertain one just before, or now), then its write-ahead
     * and the job's in-flight mark in one statement: written only under the run's epoch on a job still the
     * server's and open (the row lock that fences a take-over), and the job's row it answers is what the run
     * looks at next.
     */
    async claim(job, epoch): Promise<Claim<SqlJob, SqlRecipient>> {
      const prefetched = ahead?.job === job ? ahead.next : undefined
      ahead = undefined
      const step = prefetched ?? (await nextStep(job))
      // None left to claim: done once none is uncertain either.
      if (!step.recipient_id) return step.u_recipient_id ? { kind: 'again' } : { kind: 'done' }
      // Nothing is written for it: a marketing message goes only to a job created as a marketing job.
      if (!kindReaches(job.row.kind, step.way)) return { kind: 'mismatch' }
      if (!step.subscription) throw new Error('No subscription for this user.')
      const mode = sendMode(
        step.earlier,
        job.row.branded_from,
        toState(step.subscription),
        job.row.branded_messages_amount > 0,
      )
      if (mode === 'stop') return { kind: 'stop' }
      const branded = mode === 'branded'
      // The job's row is locked first (as a take-over locks it): the lease moved on or the job was taken back
      // since the read, and nothing is written. Then the page's pacer: its slot is taken for this send once the
      // page's wait is over (its hold lapsed, or it is this job's own), or nothing is written either.
      const row = (
        await store.query<SenderRow>(
          `WITH locked AS MATERIALIZED (
             SELECT id, page_id FROM messages
              WHERE id = $1 AND lease = $2 AND sender = 'server' AND state = 'open' AND deleted_at IS NULL
              FOR NO KEY UPDATE
           ), slot AS (
             INSERT INTO page_pacing (page_id, next_send_at, holder)
               SELECT page_id, to_timestamp($6::double precision / 1000) + make_interval(secs => $3), $1 FROM locked
             ON CONFLICT (page_id) DO UPDATE SET next_send_at = EXCLUDED.next_send_at, holder = EXCLUDED.holder
              WHERE page_pacing.next_send_at <= to_timestamp($6::double precision / 1000) OR page_pacing.holder = $1
             RETURNING 1
           ), job AS (
             UPDATE messages SET busy_until = now() + make_interval(secs => $3)
              WHERE id = $1 AND EXISTS (SELECT 1 FROM slot)
              RETURNING ${SENDER_JOB}
           ), attempt AS (
             UPDATE message_recipients SET attempt_at = now(), attempts = attempts + 1, attempt_branded = $5
              WHERE message_id = $1 AND recipient_id = $4 AND EXISTS (SELECT 1 FROM job)
           )
           SELECT * FROM job`,
          [id, epoch, BUSY_MS / 1000, step.recipient_id, branded, now()],
        )
      )[0]
      if (!row) {
        // Still this run's and open: another job of the page is sending, or the page's wait is not over.
        // A send in flight frees it when it is recorded: when, nobody knows yet.
        const page = (
          await store.query<{ free_at: Date; held: boolean }>(
            `SELECT p.next_send_at AS free_at, p.holder IS NOT NULL AS held
               FROM messages m JOIN page_pacing p ON p.page_id = m.page_id
              WHERE m.id = $1 AND m.lease = $2 AND m.sender = 'server' AND m.state = 'open'
                AND p.next_send_at > to_timestamp($3::double precision / 1000)`,
            [id, epoch, now()],
          )
        )[0]
        if (!page) return { kind: 'again' }
        return { kind: 'busy', until: page.held ? undefined : new Date(page.free_at).getTime() }
      }
      return {
        kind: 'recipient',
        job: sqlJob(row),
        recipient: {
          recipientId: step.recipient_id,
          name: step.name,
          conversationId: step.conversation_id ?? '',
          way: step.way,
          failures: step.failures,
          imageSent: step.image_sent,
          branded,
        },
      }
    },

    async record(job, r, outcome: Outcome, epoch, nextSendAt) {
      // A run whose lease moved on records nothing: the write-ahead stays, and the new holder reconciles it.
      // The touch compares the lease on the job's locked row, so a take-over waits for the record or the record
      // sees the take-over: never a result written under an epoch that moved on. The in-flight mark goes and
      // the next wait is set in the same statement.
      const next = nextSendAt ?? null
      try {
        await touch(
          store,
          job.row.user_id,
          id,
          {
            status: outcome.ok ? 'OK' : 'NG',
            recipient_id: r.recipientId,
            sent_as_branded: outcome.ok && !!r.branded,
            error_data: outcome.ok
              ? null
              : { error_message: outcome.error, recipent_id: r.recipientId, recipent_name: r.name },
            message_id: outcome.ok ? outcome.messageId : undefined,
          },
          { lease: epoch, nextSendAt: next, now: now() },
        )
      } catch (err) {
        // The send is over all the same: its in-flight mark goes, or a device that took the job back meanwhile
        // would wait for it to lapse (BUSY_MS) before it could go on.
        if (err instanceof LeaseMoved) return clearBusy(epoch).then(() => 'stale' as const)
        // The message went but nothing is left to pay for it (406): it is recorded without spending, and the
        // job stops.
        if (!(err instanceof AllowanceRefused)) throw err
        const marked = await store.query(
          `WITH job AS (SELECT id FROM messages WHERE id = $1 AND lease = $3 FOR NO KEY UPDATE)
           UPDATE message_recipients SET status = 'OK', touched_at = now()
            WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL AND EXISTS (SELECT 1 FROM job)
            RETURNING 1`,
          [id, r.recipientId, epoch],
        )
        if (marked.length === 0 && (await readJob(store, id))?.lease !== epoch) {
          await clearBusy(epoch)
          return 'stale'
        }
        return 'refused'
      }
      job.row.busy_until = null
      if (next !== null) job.row.next_send_at = new Date(next)
      return 'recorded'
    },

    async backToPending(_job, r, changes) {
      await store.query(
        `UPDATE message_recipients SET attempt_at = NULL, image_sent = image_sent OR $3,
            failures = COALESCE($4, failures)
          WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
        [id, r.recipientId, changes.imageSent ?? false, changes.failures ?? null],
      )
    },

    async inFlight(_job, r) {
      return { sending: true, failures: r.failures ?? 0 }
    },

    async sendFailed(_job, epoch) {
      await clearBusy(epoch)
    },

    async wait(_job, epoch, at, state) {
      await setNext(epoch, at, state ?? null)
    },

    async imageWent(_job, r) {
      await store.query(
        'UPDATE message_recipients SET image_sent = true WHERE message_id = $1 AND recipient_id = $2',
        [id, r.recipientId],
      )
    },

    async attachment() {
      return (await readJob(store, id))?.attachment_id ?? undefined
    },

    forget() {
      ahead = undefined
    },

    async setAttachment(_job, attachmentId) {
      await store.query('UPDATE messages SET attachment_id = $2 WHERE id = $1', [id, attachmentId])
    },

    async finish(job) {
      await store.query(
        `UPDATE messages SET state = 'finished', server_state = NULL, busy_until = NULL WHERE id = $1`,
        [id],
      )
      ended(job)
    },

    async stop(job, reason) {
      // The recipients left are counted as skipped, whatever stopped the job.
      await store.query(
        `UPDATE messages SET state = 'stopped', stop_reason = $2, server_state = NULL, busy_until = NULL,
            skipped_count = (SELECT count(*)::int FROM message_recipients WHERE message_id = $1 AND status IS NULL)
          WHERE id = $1`,
        [id, reason],
      )
      ended(job)
    },
  }
}

/** The token is missing or expired: the job waits (still the server's) until the owner opens the app. */
export async function waitForOwner(store: Store, id: string): Promise<void> {
  await store.query(`UPDATE messages SET server_state = 'needs_signin', busy_until = NULL WHERE id = $1`, [
    id,
  ])
}

/** How many recipients the job delivered to. */
export async function sentCount(store: Store, id: string): Promise<number> {
  return (
    (await store.query<{ ok_count: number }>('SELECT ok_count FROM messages WHERE id = $1', [id]))[0]
      ?.ok_count ?? 0
  )
}
