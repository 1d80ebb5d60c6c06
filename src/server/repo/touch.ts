/**
 * Recording one recipient's result and spending the allowance, in one transaction:
 *  1. claim the (message, recipient) row: only a row without a result can take one, so a retried touch finds
 *     it taken and spends nothing more (the primary key serialises concurrent retries);
 *  2. an OK, non-branded result spends one message in a single conditional UPDATE: subscription messages
 *     first, then add-ons, and the CHECK constraints plus the WHERE make going below zero impossible;
 *     unlimited subscribers spend nothing but are counted, and the send that reaches the fair-use limit
 *     blocks them;
 *  3. nothing left: the transaction rolls back, so the result is not recorded and the client may retry it
 *     later (after buying messages) under the same recipient id.
 * A touch the client marks branded spends nothing only when the server agrees: the account has authorised
 * branded messages and the message's branded touches stay within the `branded_messages_amount` it declared.
 * Both are checked by the one conditional UPDATE of the message row, whose row lock makes concurrent touches
 * of one message take the remaining branded places one at a time. Any other branded touch is counted as a
 * normal one (recorded with `sent_as_branded = false`, spending one message, 406 with nothing left and
 * nothing recorded), so the claim of step 1 still decides: a retry of a recorded touch, branded or not,
 * spends nothing more.
 */
import { UNLIMITED_FAIR_USE_LIMIT } from '../../shared/constants/limits.ts'
import type { RefusalCode, TouchResponse } from '../../shared/contracts/api.ts'
import type { Queryable, Store } from '../db/store.ts'
import { countBranded, countResult, ownMessage } from './messages.ts'
import { hasAccess, loadSubscription, toState } from './subscriptions.ts'

export interface TouchInput {
  status: 'OK' | 'NG'
  recipient_id: string
  sent_as_branded: boolean
  error_data?:
    { error_message: string; recipent_id: string; recipent_name?: string | undefined } | null | undefined
}

export const NO_MESSAGES = "You don't have any messages available"
export const FAIR_USE_BLOCKED =
  'Your account has been detected violating our fair use policy. Please purchase a messages package to continue sending.'
export const NO_ACCESS = 'Your subscription has ended. Please purchase a subscription to send messages.'

const SPEND = `
UPDATE subscriptions SET
  unlimited_sent = unlimited_sent + CASE WHEN is_unlimited AND NOT unlimited_blocked THEN 1 ELSE 0 END,
  unlimited_blocked = unlimited_blocked OR (is_unlimited AND unlimited_sent + 1 >= $2),
  subscriptions_messages = CASE
    WHEN is_unlimited AND NOT unlimited_blocked THEN subscriptions_messages
    WHEN subscriptions_messages > 0 THEN subscriptions_messages - 1
    ELSE subscriptions_messages END,
  addons_messages = CASE
    WHEN is_unlimited AND NOT unlimited_blocked THEN addons_messages
    WHEN subscriptions_messages > 0 THEN addons_messages
    ELSE addons_messages - 1 END
WHERE user_id = $1
  AND access AND (current_period_end IS NULL OR current_period_end > now())
  AND ((is_unlimited AND NOT unlimited_blocked) OR subscriptions_messages + addons_messages > 0)
RETURNING user_id`

/** Nothing was left to spend: the touch is not recorded (the message says why, for the owner; the code for the app). */
export class AllowanceRefused extends Error {
  readonly code: RefusalCode
  constructor(message: string, code: RefusalCode) {
    super(message)
    this.name = 'AllowanceRefused'
    this.code = code
  }
}

async function refusal(tx: Queryable, userId: string): Promise<AllowanceRefused> {
  const row = await loadSubscription(tx, userId)
  if (!hasAccess(row)) return new AllowanceRefused(NO_ACCESS, 'no_access')
  if (row.is_unlimited && row.unlimited_blocked)
    return new AllowanceRefused(FAIR_USE_BLOCKED, 'fair_use_blocked')
  return new AllowanceRefused(NO_MESSAGES, 'no_messages')
}

export async function touch(
  store: Store,
  userId: string,
  messageId: string,
  input: TouchInput,
): Promise<TouchResponse> {
  return store.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO message_recipients (message_id, recipient_id, name, status, sent_as_branded, error_data, touched_at)
       SELECT id, $2, $3, $4, $5, $6, now() FROM messages WHERE id = $1 AND user_id = $7 AND deleted_at IS NULL
       ON CONFLICT (message_id, recipient_id) DO UPDATE SET status = EXCLUDED.status,
         sent_as_branded = EXCLUDED.sent_as_branded, error_data = EXCLUDED.error_data, touched_at = now()
       WHERE message_recipients.status IS NULL
       RETURNING recipient_id`,
      [
        messageId,
        input.recipient_id,
        input.error_data?.recipent_name ?? '',
        input.status,
        input.sent_as_branded,
        input.error_data ? JSON.stringify(input.error_data) : null,
        userId,
      ],
    )
    // Nothing claimed: a repeat of a recorded touch, or not one of the caller's messages.
    if (claimed.length === 0) {
      await ownMessage(tx, messageId, userId)
    } else {
      if (input.status === 'NG') {
        await countResult(tx, messageId, 'NG')
      } else if (!input.sent_as_branded || !(await countBranded(tx, userId, messageId))) {
        if (input.sent_as_branded) {
          await tx.query(
            'UPDATE message_recipients SET sent_as_branded = false WHERE message_id = $1 AND recipient_id = $2',
            [messageId, input.recipient_id],
          )
        }
        // The message row first, then the subscription, as the branded check above: one lock order, so
        // concurrent touches wait for each other instead of deadlocking (a refusal rolls both back).
        await countResult(tx, messageId, 'OK')
        const spent = await tx.query(SPEND, [userId, UNLIMITED_FAIR_USE_LIMIT])
        if (spent.length === 0) throw await refusal(tx, userId)
      }
    }
    const subscription = toState(await loadSubscription(tx, userId))
    return { available_messages: subscription.available_messages, subscription }
  })
}
