/**
 * Recording one recipient's result and spending the allowance, in one SQL statement (one round trip, atomic
 * on its own, no BEGIN/COMMIT around it):
 *  1. the customer's receipts row is locked for share first, then the message row, then the subscription
 *     row, on every path: one lock order (the webhook batches take receipts, then messages, then recipients),
 *     so concurrent touches and receipts wait for each other instead of deadlocking. The locks return the
 *     newest committed version of their row, so what the statement decides from them is current, not its
 *     snapshot's;
 *  2. from those rows it decides: a recipient is admitted when it is in the message's list, or, for a message
 *     given no list, while fewer than `total_messages` recipients have a result (the counts on the locked
 *     row); an NG result spends nothing; an OK touch the client marks branded spends nothing while the
 *     message's branded touches stay within the `branded_messages_amount` it declared (the message lock hands
 *     out the remaining branded places one at a time), or once the account has nothing left to spend (the
 *     footer from then on), and is refused past it while messages are left; any other OK touch spends one
 *     message, and may only be recorded when one can be spent (subscription messages first, then add-ons;
 *     unlimited subscribers spend nothing but are counted, and the send that reaches the fair-use limit
 *     blocks them);
 *  3. it claims the (message, recipient) row: only a row without a result can take one, so a retried touch
 *     finds it taken and spends nothing more (the primary key and the message lock serialise retries);
 *  4. only a claimed touch counts on the message and spends, with the same condition the decision used on
 *     the same locked row, so a recorded OK touch has always spent and a refused one has recorded nothing:
 *     the client may retry it later (after buying messages) under the same recipient id.
 * A recipient not admitted is refused with 409, a branded touch past the declared amount with 406
 * (`branded_exhausted`, as a sender stops at an exhausted allowance); neither records or spends anything.
 * A branded touch of an account that no longer authorises branded messages spends one message. The CHECK
 * constraints make going below zero impossible anyway.
 */
import { UNLIMITED_FAIR_USE_LIMIT } from '../../core/constants/limits.ts'
import type { RefusalCode, TouchResponse } from '../../core/contracts/api.ts'
import type { Queryable } from '../db/store.ts'
import { recordOptInRequests } from './marketing.ts'
import { recordOptInMessages } from './optin-messages.ts'
import { MessageNotFound } from './messages.ts'
import { publishToUsers } from './owner-events.ts'
import { SEND_RECORD_SLACK_S } from './page-receipts.ts'
import { type SubscriptionRow, hasAccess, toState } from './subscriptions.ts'

export interface TouchInput {
  status: 'OK' | 'NG'
  recipient_id: string
  sent_as_branded: boolean
  error_data?:
    { error_message: string; recipent_id: string; recipent_name?: string | undefined } | null | undefined
  /** The network's id of the delivered message (kept for an opt-in request, so the chats show it as one). */
  message_id?: string | undefined
}

export const NO_MESSAGES = "You don't have any messages available"
export const FAIR_USE_BLOCKED =
  'Your account has been detected violating our fair use policy. Please purchase a messages package to continue sending.'
export const BRANDED_EXHAUSTED = 'This send has no branded messages left.'
export const NOT_A_RECIPIENT = "This recipient is not one of this message's recipients."
export const NO_ACCESS = 'Your subscription has ended. Please purchase a subscription to send messages.'

/** Whether the locked subscription row `s` can pay for one message now. */
const CAN_SPEND = `s.access AND (s.current_period_end IS NULL OR s.current_period_end > now())
  AND ((s.is_unlimited AND NOT s.unlimited_blocked) OR s.subscriptions_messages + s.addons_messages > 0)`

/**
 * $1 message id, $2 user id, $3 recipient id, $4 status, $5 marked branded, $6 recipient name,
 * $7 error data (JSON text), $8 fair-use limit, $11 the receipts' slack in seconds, $9 the lease epoch the server's sender records under (NULL:
 * any), $10 the end of its next pacing wait (epoch ms, or NULL), $12 the sender's clock (epoch ms: the page's
 * slot goes at that time when there is no next wait). The lease is compared on the locked row, so a
 * take-over either waits for the touch or the touch sees it and records nothing.
 */
const TOUCH = `
WITH watermarks AS MATERIALIZED (
  -- The customer's receipts, locked for share before anything else: a receipt being applied meanwhile either
  -- is seen here or sees this send. First, as a webhook batch takes its locks (receipts, then messages in id
  -- order, then recipients), so the two wait for each other and never deadlock.
  SELECT pr.delivered_watermark, pr.read_watermark FROM page_receipts pr
  WHERE pr.page_id = (SELECT m.page_id FROM messages m WHERE m.id = $1::bigint) AND pr.customer_id = $3::text
  FOR SHARE
), msg AS MATERIALIZED (
  SELECT id, page_id, branded_count < branded_messages_amount AS branded_room, recipients_listed, total_messages,
    EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = $1::bigint AND r.recipient_id = $3::text)
      OR (NOT recipients_listed AND ok_count + ng_count < total_messages) AS admitted
  FROM messages WHERE id = $1::bigint AND user_id = $2::bigint AND deleted_at IS NULL
    AND ($9::integer IS NULL OR lease = $9::integer)
    -- Read before this row is locked (a one-time filter): the receipts' lock comes first.
    AND (SELECT count(*) FROM watermarks) >= 0
  FOR NO KEY UPDATE
), sub AS MATERIALIZED (
  SELECT s.* FROM subscriptions s WHERE s.user_id = $2::bigint AND EXISTS (SELECT 1 FROM msg)
  FOR NO KEY UPDATE
), receipts AS MATERIALIZED (
  -- The customer's receipts that came before this send was recorded (a fast network, a slow app): a
  -- watermark covers a send recorded up to $11 seconds after it, as when it comes later.
  SELECT now() <= w.delivered_watermark + make_interval(secs => $11::double precision)
      OR now() <= w.read_watermark + make_interval(secs => $11::double precision) AS delivered,
    now() <= w.read_watermark + make_interval(secs => $11::double precision) AS read
  FROM watermarks w, msg
), decision AS MATERIALIZED (
  SELECT $4::text = 'OK' AND $5::boolean AND room.branded AND s.use_branded_messages AS branded,
    $4::text = 'OK' AND NOT ($5::boolean AND room.branded AND s.use_branded_messages) AS spends,
    $4::text = 'OK' AND $5::boolean AND NOT room.branded AS over_branded,
    msg.admitted, msg.recipients_listed, msg.total_messages,
    ${CAN_SPEND} AS can_spend
  FROM msg, sub s,
    -- Past the declared amount a branded message is still free once nothing is left to spend: the footer
    -- carries the rest of the send, as the allowance rules say; with messages left it is refused.
    LATERAL (SELECT msg.branded_room OR NOT (${CAN_SPEND}) AS branded) room
), claim AS (
  INSERT INTO message_recipients
    (message_id, recipient_id, name, status, sent_as_branded, error_data, touched_at, delivered_at, read_at)
  SELECT $1::bigint, $3::text, $6::text, $4::text,
    CASE WHEN $4::text = 'NG' THEN $5::boolean ELSE d.branded END, $7::jsonb, now(),
    CASE WHEN $4::text = 'OK' AND COALESCE((SELECT delivered FROM receipts), false) THEN now() END,
    CASE WHEN $4::text = 'OK' AND COALESCE((SELECT read FROM receipts), false) THEN now() END
  FROM decision d WHERE d.admitted AND NOT d.over_branded AND (NOT d.spends OR d.can_spend)
  ON CONFLICT (message_id, recipient_id) DO UPDATE SET status = EXCLUDED.status,
    sent_as_branded = EXCLUDED.sent_as_branded, error_data = EXCLUDED.error_data, touched_at = now(),
    delivered_at = EXCLUDED.delivered_at, read_at = EXCLUDED.read_at
  WHERE message_recipients.status IS NULL
  RETURNING recipient_id, delivered_at IS NOT NULL AS delivered, read_at IS NOT NULL AS read
), counted AS (
  -- Under a lease (the server's sender), also its in-flight mark goes and the next wait is set.
  UPDATE messages SET
    ok_count = ok_count + CASE WHEN $4::text = 'OK' AND EXISTS (SELECT 1 FROM claim) THEN 1 ELSE 0 END,
    ng_count = ng_count + CASE WHEN $4::text = 'NG' AND EXISTS (SELECT 1 FROM claim) THEN 1 ELSE 0 END,
    branded_count = branded_count
      + CASE WHEN EXISTS (SELECT 1 FROM claim) AND (SELECT branded FROM decision) THEN 1 ELSE 0 END,
    delivered_count = delivered_count + CASE WHEN EXISTS (SELECT 1 FROM claim WHERE delivered) THEN 1 ELSE 0 END,
    read_count = read_count + CASE WHEN EXISTS (SELECT 1 FROM claim WHERE read) THEN 1 ELSE 0 END,
    busy_until = CASE WHEN $9::integer IS NULL THEN busy_until END,
    next_send_at = COALESCE(to_timestamp($10::double precision / 1000), next_send_at),
    server_state = CASE WHEN $10::double precision IS NOT NULL AND $4::text = 'OK' THEN 'running'
      ELSE server_state END
  -- Only the locked row of \`msg\`: under a lease that moved on, nothing of the new holder's is touched.
  WHERE id = $1::bigint AND EXISTS (SELECT 1 FROM msg)
    AND (EXISTS (SELECT 1 FROM claim) OR $9::integer IS NOT NULL)
  RETURNING id, delivered_count, read_count
), paced AS (
  -- The server's sender lets the page's slot go with the page's next wait (see bulk-job-store.ts).
  UPDATE page_pacing p SET holder = NULL,
    next_send_at = to_timestamp(COALESCE($10::double precision, $12::double precision) / 1000)
  FROM msg WHERE $9::integer IS NOT NULL AND p.page_id = msg.page_id AND p.holder = $1::bigint
), spent AS (
  UPDATE subscriptions s SET
    unlimited_sent = unlimited_sent + CASE WHEN is_unlimited AND NOT unlimited_blocked THEN 1 ELSE 0 END,
    unlimited_blocked = unlimited_blocked OR (is_unlimited AND unlimited_sent + 1 >= $8::bigint),
    subscriptions_messages = CASE
      WHEN is_unlimited AND NOT unlimited_blocked THEN subscriptions_messages
      WHEN subscriptions_messages > 0 THEN subscriptions_messages - 1
      ELSE subscriptions_messages END,
    addons_messages = CASE
      WHEN is_unlimited AND NOT unlimited_blocked THEN addons_messages
      WHEN subscriptions_messages > 0 THEN addons_messages
      ELSE addons_messages - 1 END
  FROM decision d
  WHERE s.user_id = $2::bigint AND d.spends AND EXISTS (SELECT 1 FROM claim) AND ${CAN_SPEND}
  RETURNING s.*
)
SELECT EXISTS (SELECT 1 FROM claim) AS claimed,
  EXISTS (SELECT 1 FROM claim WHERE delivered) AS receipted,
  (SELECT delivered_count FROM counted) AS delivered_count, (SELECT read_count FROM counted) AS read_count,
  d.spends, d.can_spend, d.admitted, d.over_branded,
  d.recipients_listed, d.total_messages,
  EXISTS (SELECT 1 FROM spent) AS paid, now_sub.*,
  (SELECT m.page_id FROM messages m WHERE m.id = $1::bigint) AS message_page_id,
  (SELECT m.content_kind FROM messages m WHERE m.id = $1::bigint) AS content_kind,
  (SELECT m.optin_title FROM messages m WHERE m.id = $1::bigint) AS optin_title,
  (SELECT facebook_id FROM users WHERE id = $2::bigint) AS facebook_id,
  (SELECT max(id) FROM terms) AS latest_terms_id
FROM decision d,
  (SELECT * FROM spent UNION ALL SELECT * FROM sub WHERE NOT EXISTS (SELECT 1 FROM spent)) now_sub`

interface TouchRow extends SubscriptionRow {
  claimed: boolean
  /** The send was recorded as delivered (or read) by receipts that came before it. */
  receipted: boolean
  delivered_count: number | null
  read_count: number | null
  spends: boolean
  can_spend: boolean
  admitted: boolean
  over_branded: boolean
  recipients_listed: boolean
  total_messages: number
  paid: boolean
  message_page_id: string
  content_kind: 'text' | 'optin_request'
  optin_title: string | null
}

/** Nothing was left to spend: the touch is not recorded (the message says why, for the owner; the code for the app). */
export class AllowanceRefused extends Error {
  readonly code: RefusalCode
  constructor(message: string, code: RefusalCode) {
    super(message)
    this.name = 'AllowanceRefused'
    this.code = code
  }
}

/** The touch names a recipient the message does not have room for: nothing is recorded or spent (409). */
export class TouchRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TouchRefused'
  }
}

function refusal(row: SubscriptionRow): AllowanceRefused {
  if (!hasAccess(row)) return new AllowanceRefused(NO_ACCESS, 'no_access')
  if (row.is_unlimited && row.unlimited_blocked)
    return new AllowanceRefused(FAIR_USE_BLOCKED, 'fair_use_blocked')
  return new AllowanceRefused(NO_MESSAGES, 'no_messages')
}

/** Why an unclaimed touch was not recorded, or undefined when it was a repeat of a recorded one. */
function refusalOf(row: TouchRow): Error | undefined {
  if (!row.admitted)
    return new TouchRefused(
      row.recipients_listed
        ? NOT_A_RECIPIENT
        : `This message was declared for ${row.total_messages} recipients; it has them all.`,
    )
  if (row.over_branded) return new AllowanceRefused(BRANDED_EXHAUSTED, 'branded_exhausted')
  if (row.spends && !row.can_spend) return refusal(row)
  return undefined
}

/** A touch under a lease epoch found the job's lease moved on: nothing was recorded or spent. */
export class LeaseMoved extends Error {
  constructor() {
    super("The job's lease moved on.")
    this.name = 'LeaseMoved'
  }
}

/** Where the server's sender records: under its lease epoch, and the end of its next pacing wait (or null). */
export interface UnderLease {
  lease: number
  nextSendAt: number | null
  /** The sender's clock now (epoch ms): a record without a next wait lets the page's slot go at this time. */
  now: number
}

/**
 * Records the result (see above). `under` a lease (the server's sender), only while the job's lease is that
 * epoch, and with the job's in-flight mark cleared and its next wait set in the same statement: a lease that
 * moved on throws LeaseMoved.
 */
export async function touch(
  store: Queryable,
  userId: string,
  messageId: string,
  input: TouchInput,
  under?: UnderLease,
): Promise<TouchResponse> {
  const lease = under?.lease
  const rows = await store.query<TouchRow>(TOUCH, [
    messageId,
    userId,
    input.recipient_id,
    input.status,
    input.sent_as_branded,
    input.error_data?.recipent_name ?? '',
    input.error_data ? JSON.stringify(input.error_data) : null,
    UNLIMITED_FAIR_USE_LIMIT,
    lease ?? null,
    under?.nextSendAt ?? null,
    SEND_RECORD_SLACK_S,
    under?.now ?? null,
  ])
  const row = rows[0]
  if (!row && lease !== undefined) {
    const now = await store.query<{ lease: number }>(
      'SELECT lease FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
      [messageId, userId],
    )
    if (now[0] && now[0].lease !== lease) throw new LeaseMoved()
  }
  // No row: not one of the caller's messages (or deleted).
  if (!row) throw new MessageNotFound()
  if (row.claimed && row.spends && !row.paid) {
    // The decision and the spend read the same locked row with the same condition: unreachable.
    throw new Error('A touch was recorded without spending.')
  }
  const refused = row.claimed ? undefined : refusalOf(row)
  if (refused) {
    // Refused, unless the recipient was recorded already (a retry, possibly committed by a concurrent
    // request after this statement's snapshot): a repeat answers as before and spends nothing.
    const recorded = await store.query(
      'SELECT 1 FROM message_recipients WHERE message_id = $1 AND recipient_id = $2 AND status IS NOT NULL',
      [messageId, input.recipient_id],
    )
    if (recorded.length === 0) throw refused
  }
  // A delivered opt-in request counts toward the network's one-per-title-per-week limit (a retried touch
  // records it again, harmlessly: the same person, title and about the same time), and its message shows
  // in the chats as a subscription request (kept once per message id).
  if (input.status === 'OK' && row.content_kind === 'optin_request' && row.optin_title) {
    const at = new Date()
    await recordOptInRequests(store, row.message_page_id, [input.recipient_id], row.optin_title, at)
    if (input.message_id)
      await recordOptInMessages(
        store,
        row.message_page_id,
        [{ psid: input.recipient_id, message_id: input.message_id }],
        row.optin_title,
        at,
      )
  }
  // Counted from receipts that came first: the owner's apps hear of it as a receipt would tell them.
  if (row.receipted)
    await publishToUsers(store, [userId], 'bulk_receipts', {
      pageId: row.message_page_id,
      messageId,
      delivered: row.delivered_count ?? 0,
      read: row.read_count ?? 0,
    })
  const subscription = toState(row)
  return { available_messages: subscription.available_messages, subscription }
}
