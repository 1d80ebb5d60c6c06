/**
 * A bulk job as the server sender keeps it: the `messages` row (who sends it, its lease, the pacing wait) and
 * the `message_recipients` rows (the write-ahead `attempt_at`, the result). The hand-over and take-back move
 * the lease between the device and the server in one transaction each, so exactly one side sends at a time.
 */
import type { HandoverBody, TakeBackResponse, TouchBody } from '../../shared/contracts/api.ts'
import type { JobKind } from '../../shared/contracts/marketing-core.ts'
import type { UtilityContent } from '../../shared/graph/template.ts'
import type { Queryable, Store } from '../db/store.ts'
import { MessageNotFound } from '../repo/messages.ts'
import { AllowanceRefused, TouchRefused, touch } from '../repo/touch.ts'
import { LEASE_MS } from '../../shared/bulk/core/lease.ts'
import { reserved } from '../repo/message-recipients.ts'
import type { TokenBox } from './token-box.ts'

/** Untouched recipients this close after the last touched one may have been sent by a closing device. */
export const UNCERTAIN_TAIL = 5

/** A server send is in flight at most this long (the Graph timeout and the recording after it). */
export const BUSY_MS = 45_000

/** The job is not where the caller thought (another side holds it, or it ended). */
export class LeaseConflict extends Error {
  readonly lease: number
  readonly sender: string
  constructor(lease: number, sender: string, why: string) {
    super(why)
    this.name = 'LeaseConflict'
    this.lease = lease
    this.sender = sender
  }
}

/** A hand-over or start of a job as another kind than it was created: nothing is handed over. */
export class KindMismatch extends Error {
  constructor(readonly kind: JobKind) {
    super(`The job is of kind ${kind}.`)
    this.name = 'KindMismatch'
  }
}

export interface ServerJob {
  id: string
  user_id: string
  page_id: string
  message: string
  image_url: string | null
  tag: string | null
  messaging_type: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
  state: string
  sender: 'device' | 'server'
  lease: number
  next_send_at: Date | null
  branded_from: number
  branded_messages_amount: number
  attachment_id: string | null
  total_messages: number
  /** A send (of any run of this job) may be in flight until then. */
  busy_until: Date | null
  /** What the job is, fixed at its creation: only a marketing job sends marketing messages. */
  kind: JobKind
  /** What the job sends: the owner's text, an opt-in request titled `optin_title`, or a utility message. */
  content_kind: 'text' | 'optin_request' | 'utility'
  optin_title: string | null
  /** A utility job's template and parameters. */
  utility: UtilityContent | null
  /** Written where the text takes a recipient's first name and the network has none. */
  name_fallback: string | null
  /** The job's campaign, when some recipients are reached as marketing messages. */
  ad_account_id: string | null
  campaign_id: string | null
  marketing_message_id: string | null
  budget_kind: 'daily' | 'total' | null
  budget_minor: number | null
  spend_minor: number | null
  spend_read_at: Date | null
  currency: string | null
}

const JOB_COLUMNS = `id::text AS id, user_id::text AS user_id, page_id, message, image_url, tag, messaging_type, state,
  sender, lease, next_send_at, branded_from, branded_messages_amount, attachment_id, total_messages, busy_until,
  kind, content_kind, optin_title, utility, name_fallback, ad_account_id, campaign_id, marketing_message_id,
  budget_kind, budget_minor::double precision AS budget_minor, spend_minor::double precision AS spend_minor, spend_read_at, currency`

export async function readJob(db: Queryable, id: string): Promise<ServerJob | undefined> {
  return (
    await db.query<ServerJob>(`SELECT ${JOB_COLUMNS} FROM messages WHERE id = $1 AND deleted_at IS NULL`, [
      id,
    ])
  )[0]
}

/** Records the device's undelivered results through the one idempotent touch (the allowance is spent once). */
async function applyResults(store: Store, userId: string, id: string, results: readonly TouchBody[]) {
  for (const r of results) {
    try {
      await touch(store, userId, id, {
        status: r.status,
        recipient_id: r.recipient_id,
        sent_as_branded: r.sent_as_branded ?? false,
        error_data: r.error_data ?? null,
        message_id: r.message_id,
      })
    } catch (err) {
      // Nothing left to spend, or no room for that recipient: it is not recorded; the server's sender meets
      // the same refusal.
      if (!(err instanceof AllowanceRefused) && !(err instanceof TouchRefused)) throw err
    }
  }
}

/**
 * The device gives the job to the server. Its undelivered results are recorded first (idempotent); then, with
 * the job's row locked: the lease must be the one the device holds and the device must be the sender; the
 * sends it cannot vouch for become uncertain (any recipient it reached without a result too), the pacing
 * wait and the sealed page token are kept, and the lease moves on. Answers the new lease.
 */
export async function handOver(
  store: Store,
  box: TokenBox,
  userId: string,
  id: string,
  body: HandoverBody & { results: TouchBody[]; uncertain: NonNullable<HandoverBody['uncertain']> },
): Promise<{ lease: number }> {
  await applyResults(store, userId, id, body.results)
  return store.transaction(async (tx) => {
    const job = (
      await tx.query<{
        lease: number
        sender: string
        state: string
        total_messages: number
        created_at: Date
        kind: JobKind
      }>(
        `SELECT lease, sender, state, total_messages, created_at, kind FROM messages
           WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`,
        [id, userId],
      )
    )[0]
    if (!job) throw new MessageNotFound()
    if (job.state !== 'open') throw new LeaseConflict(job.lease, job.sender, `The job is ${job.state}.`)
    if (job.sender !== 'device' || job.lease !== body.lease)
      throw new LeaseConflict(job.lease, job.sender, 'The job was handed over already.')
    if (body.kind && body.kind !== job.kind) throw new KindMismatch(job.kind)
    const known = (
      await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM message_recipients WHERE message_id = $1',
        [id],
      )
    )[0]!.n
    if (known < job.total_messages)
      throw new LeaseConflict(job.lease, job.sender, 'The server does not have the whole recipient list yet.')
    for (const u of body.uncertain) {
      await tx.query(
        `UPDATE message_recipients SET attempt_at = to_timestamp($3::double precision / 1000),
            image_sent = $4, attempt_branded = $5, attempts = attempts + 1
          WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
        [id, u.recipient_id, u.attempt_at, u.image_sent ?? false, u.branded ?? false],
      )
    }
    // Reached by the device (before its cursor) with neither a result nor an attempt time: it may have gone
    // out; it is reconciled against the conversation since the job began before anything is sent again. A
    // closing page cannot say how far it got. A device that reserves each send first (its lease's
    // write-ahead) left an attempt time on every recipient it may have sent to: nothing more is taken as
    // reached. Without any reservation, the few untouched recipients after the last touched one are (the
    // device touches each send right after it).
    const cursor =
      body.cursor ??
      (
        await tx.query<{ n: number }>(
          `SELECT CASE WHEN bool_or(r.attempt_at IS NOT NULL) THEN 0
                  ELSE (SELECT count(*)::int FROM message_recipients o WHERE o.message_id = $1
                          AND o.seq <= coalesce(max(r.seq) FILTER (WHERE r.status IS NOT NULL), 0)) + $2 END AS n
             FROM message_recipients r WHERE r.message_id = $1`,
          [id, UNCERTAIN_TAIL],
        )
      )[0]!.n
    await tx.query(
      `UPDATE message_recipients SET attempt_at = $3, attempts = attempts + 1
        WHERE message_id = $1 AND status IS NULL AND attempt_at IS NULL
          AND seq IN (SELECT seq FROM message_recipients WHERE message_id = $1 ORDER BY seq LIMIT $2)`,
      [id, cursor, job.created_at],
    )
    const lease = job.lease + 1
    await tx.query(
      `UPDATE messages SET sender = 'server', lease = $2, server_state = 'queued', lease_until = NULL,
          next_send_at = CASE WHEN $3::double precision IS NULL THEN NULL ELSE to_timestamp($3::double precision / 1000) END,
          messaging_type = $4, branded_from = $5, attachment_id = COALESCE($6, attachment_id)
        WHERE id = $1`,
      [
        id,
        lease,
        body.next_send_at ?? null,
        body.messaging_type ?? 'RESPONSE',
        body.branded_from ?? -1,
        body.attachment_id ?? null,
      ],
    )
    await tx.query(
      `INSERT INTO message_page_tokens (message_id, user_id, page_id, sealed)
         SELECT id, user_id, page_id, $2 FROM messages WHERE id = $1
         ON CONFLICT (message_id) DO UPDATE SET sealed = EXCLUDED.sealed, created_at = now()`,
      [id, box.seal(body.page_token)],
    )
    return { lease }
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The device takes the job back: the lease moves on at once (the server's next claim fails), then the answer
 * waits for a send the server has in flight to be recorded, so the device never reconciles a send that is
 * still on its way. The sealed token is deleted. Idempotent for the device that already holds the job.
 */
export async function takeBack(
  store: Store,
  userId: string,
  id: string,
  waitStep = 200,
  leaseMs = LEASE_MS,
): Promise<TakeBackResponse> {
  // The device holds the lease from now (its heartbeat renews it).
  const moved = (
    await store.query<{ lease: number; busy_until: Date | null; state: string }>(
      `UPDATE messages SET lease = CASE WHEN sender = 'server' THEN lease + 1 ELSE lease END, sender = 'device',
          server_state = NULL, lease_until = now() + make_interval(secs => $3::double precision / 1000)
        WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING lease, busy_until, state`,
      [id, userId, leaseMs],
    )
  )[0]
  if (!moved) throw new MessageNotFound()
  await store.query('DELETE FROM message_page_tokens WHERE message_id = $1', [id])
  let busy = moved.busy_until
  while (busy && new Date(busy).getTime() > Date.now()) {
    await sleep(waitStep)
    busy =
      (
        await store.query<{ busy_until: Date | null }>('SELECT busy_until FROM messages WHERE id = $1', [id])
      )[0]?.busy_until ?? null
  }
  const row = (
    await store.query<{ next_send_at: Date | null; attachment_id: string | null; state: string }>(
      'SELECT next_send_at, attachment_id, state FROM messages WHERE id = $1',
      [id],
    )
  )[0]!
  const uncertain = await reserved(store, id)
  return {
    lease: moved.lease,
    sender: 'device',
    state: row.state,
    next_send_at: row.next_send_at ? new Date(row.next_send_at).getTime() : null,
    attachment_id: row.attachment_id,
    uncertain,
  }
}

/** The job ended (finished, stopped, cancelled) or its page was disconnected: its token goes. */
export async function dropToken(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM message_page_tokens WHERE message_id = $1', [id])
}

/** A page disconnected by its owner: every token sealed for it goes, and its server jobs wait for a token. */
export async function dropPageTokens(db: Queryable, userId: string, pageId: string): Promise<void> {
  await db.query('DELETE FROM message_page_tokens WHERE user_id = $1 AND page_id = $2', [userId, pageId])
}

export async function openToken(db: Queryable, box: TokenBox, id: string): Promise<string | undefined> {
  const row = (
    await db.query<{ sealed: Uint8Array }>('SELECT sealed FROM message_page_tokens WHERE message_id = $1', [
      id,
    ])
  )[0]
  return row ? box.open(row.sealed) : undefined
}
