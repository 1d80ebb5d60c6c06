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
import { loadSubscription, toState } from './subscriptions.ts'
import { AllowanceRefused, touch } from './touch.ts'

/** The job's row with the machine's names, and the row itself for what only the server reads. */
export interface SqlJob extends MachineJob {
  row: ServerJob
}

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

function sqlJob(row: ServerJob): SqlJob {
  return {
    row,
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

export function bulkJobStore(store: Store, id: string): JobStore<SqlJob, SqlRecipient> {
  const clearBusy = (epoch: number) =>
    // Only this run's own mark: a newer run's send may be in flight. A device that took the job back meanwhile
    // sets no mark of its own, and its take-back waits for this one to go.
    store.query(`UPDATE messages SET busy_until = NULL WHERE id = $1 AND (lease = $2 OR sender = 'device')`, [
      id,
      epoch,
    ])
  const setNext = (epoch: number, at: number, state: string | null) =>
    // The in-flight mark is left alone (only a recorded or failed send clears it).
    store.query(
      `UPDATE messages SET next_send_at = to_timestamp($3::double precision / 1000),
          server_state = COALESCE($4, server_state)
        WHERE id = $1 AND lease = $2`,
      [id, epoch, at, state],
    )
  const ended = (job: SqlJob) => {
    job.phase = 'away'
  }
  return {
    async read() {
      const row = await readJob(store, id)
      return row && sqlJob(row)
    },

    async uncertain(job) {
      const u = (
        await store.query<{
          recipient_id: string
          name: string
          conversation_id: string | null
          attempt_at: Date
          image_sent: boolean
          attempt_branded: boolean
          failures: number
          way: 'standard' | 'marketing'
        }>(
          `SELECT recipient_id, name, conversation_id, attempt_at, image_sent, attempt_branded, failures, way
             FROM message_recipients WHERE message_id = $1 AND status IS NULL AND attempt_at IS NOT NULL
             ORDER BY seq LIMIT 1`,
          [id],
        )
      )[0]
      if (!u) return undefined
      return {
        recipient: {
          recipientId: u.recipient_id,
          name: u.name,
          conversationId: u.conversation_id ?? '',
          way: u.way,
          failures: u.failures,
          attemptAt: new Date(u.attempt_at).getTime(),
          branded: u.attempt_branded,
          imageSent: u.image_sent,
        },
        busyUntil: job.row.busy_until ? new Date(job.row.busy_until).getTime() : undefined,
      }
    },

    /**
     * The next recipient (the lowest without a result or an attempt), its write-ahead and the in-flight mark,
     * in one transaction; the mark is set only under the run's epoch on a job still the server's and open (the
     * row lock that fences a take-over), and the job's row read in it is what the run looks at next.
     */
    async claim(job, epoch) {
      const subscription = toState(await loadSubscription(store, job.row.user_id))
      return store.transaction(async (tx): Promise<Claim<SqlJob, SqlRecipient>> => {
        const row = await readJob(tx, id)
        if (!row || row.lease !== epoch || row.sender !== 'server' || row.state !== 'open')
          return { kind: 'again' }
        // How many recipients come before it, counted only as far as the branded footer's start: that is
        // all the allowance asks, and the count stays bounded however large the job.
        const next = (
          await tx.query<{
            recipient_id: string
            name: string
            conversation_id: string | null
            failures: number
            image_sent: boolean
            way: 'standard' | 'marketing'
            earlier: number
          }>(
            `SELECT r.recipient_id, r.name, r.conversation_id, r.failures, r.image_sent, r.way,
                  (SELECT count(*)::int FROM (SELECT 1 FROM message_recipients o
                     WHERE o.message_id = r.message_id AND o.seq < r.seq ORDER BY o.seq LIMIT $2) c) AS earlier
                 FROM message_recipients r WHERE r.message_id = $1 AND r.status IS NULL AND r.attempt_at IS NULL
                 ORDER BY r.seq LIMIT 1`,
            [id, Math.max(row.branded_from, 0)],
          )
        )[0]
        if (!next) {
          const open = (
            await tx.query(
              'SELECT 1 FROM message_recipients WHERE message_id = $1 AND status IS NULL LIMIT 1',
              [id],
            )
          ).length
          return open ? { kind: 'again' } : { kind: 'done' }
        }
        // Nothing is written for it: a marketing message goes only to a job created as a marketing job.
        if (!kindReaches(row.kind, next.way)) return { kind: 'mismatch' }
        const mode = sendMode(next.earlier, row.branded_from, subscription, row.branded_messages_amount > 0)
        if (mode === 'stop') return { kind: 'stop' }
        const branded = mode === 'branded'
        // The job's row is locked first (as a take-over locks it): the lease moved on or the job was taken
        // back since the read, and nothing is written.
        const marked = (
          await tx.query<{ busy_until: Date }>(
            `UPDATE messages SET busy_until = now() + make_interval(secs => $3)
                WHERE id = $1 AND lease = $2 AND sender = 'server' AND state = 'open' AND deleted_at IS NULL
                RETURNING busy_until`,
            [id, epoch, BUSY_MS / 1000],
          )
        )[0]
        if (!marked) return { kind: 'again' }
        row.busy_until = marked.busy_until
        await tx.query(
          `UPDATE message_recipients SET attempt_at = now(), attempts = attempts + 1, attempt_branded = $3
              WHERE message_id = $1 AND recipient_id = $2`,
          [id, next.recipient_id, branded],
        )
        return {
          kind: 'recipient',
          job: sqlJob(row),
          recipient: {
            recipientId: next.recipient_id,
            name: next.name,
            conversationId: next.conversation_id ?? '',
            way: next.way,
            failures: next.failures,
            imageSent: next.image_sent,
            branded,
          },
        }
      })
    },

    async record(job, r, outcome: Outcome, epoch, nextSendAt) {
      // A run whose lease moved on records nothing: the write-ahead stays, and the new holder reconciles it.
      // The lease is read under the job's row lock in the transaction that records, so a take-over waits for
      // the record or the record sees the take-over: never a result written under an epoch that moved on.
      return store.transaction(async (tx): Promise<'recorded' | 'refused' | 'stale'> => {
        const lease = (
          await tx.query<{ lease: number }>('SELECT lease FROM messages WHERE id = $1 FOR UPDATE', [id])
        )[0]
        if (lease?.lease !== epoch) return 'stale'
        let recorded: 'recorded' | 'refused' = 'recorded'
        try {
          await touch(tx, job.row.user_id, id, {
            status: outcome.ok ? 'OK' : 'NG',
            recipient_id: r.recipientId,
            sent_as_branded: outcome.ok && !!r.branded,
            error_data: outcome.ok
              ? null
              : { error_message: outcome.error, recipent_id: r.recipientId, recipent_name: r.name },
            message_id: outcome.ok ? outcome.messageId : undefined,
          })
        } catch (err) {
          // The message went but nothing is left to pay for it (406).
          if (!(err instanceof AllowanceRefused)) throw err
          await tx.query(
            `UPDATE message_recipients SET status = 'OK', touched_at = now() WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
            [id, r.recipientId],
          )
          recorded = 'refused'
        }
        // The in-flight mark goes and the next wait is set in one statement (the wait only for a recorded send).
        const next = nextSendAt !== undefined && recorded === 'recorded' ? nextSendAt : null
        await tx.query(
          `UPDATE messages SET busy_until = NULL,
              next_send_at = COALESCE(to_timestamp($3::double precision / 1000), next_send_at),
              server_state = COALESCE($4, server_state)
            WHERE id = $1 AND lease = $2`,
          [id, epoch, next, next === null ? null : outcome.ok ? 'running' : null],
        )
        job.row.busy_until = null
        if (next !== null) job.row.next_send_at = new Date(next)
        return recorded
      })
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
