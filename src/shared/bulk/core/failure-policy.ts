/**
 * What a failed step means for a bulk job, by the failure's class (architecture.md), for both senders (the
 * browser's worker and the server's): pure, so the two keep the same rules and only apply them to their own
 * storage.
 */
import type { GraphErrorKind } from '../../graph/types.ts'
import { TRANSIENT_MAX_ATTEMPTS } from './pacer.ts'

export type FailureAction =
  /** No answer came: the recipient stays uncertain (reconciled before any retry), the job waits for the network. */
  | 'uncertain'
  /** Throttled: the recipient goes back to pending, the job backs off. */
  | 'throttle'
  /** The page token failed: the recipient goes back to pending, the job waits for a fresh token. */
  | 'needs_token'
  /** A blocked page or a configuration error: the job stops and the owner is told. */
  | 'stop'
  /** The recipient is refused for good (outside the window, gone, or transient errors past the bound). */
  | 'reject'
  /** A transient error: the recipient goes back to pending and is tried again after a backoff. */
  | 'retry'
  /** A read (not a send) failed: wait and look again. */
  | 'wait'
  /** A recipient error outside a send (reading for reconciliation): nothing to change, look again. */
  | 'none'

/**
 * @param sending whether the failed step was the send of a recipient still marked `sending`
 * @param failures how many of that recipient's sends answered a transient error, this one included. Only these
 *   count towards the bound: a throttled try, a try whose answer never came and a try refused for the page
 *   token say nothing about the recipient, and a job slowed by them must not reject anyone for it.
 */
export function failureAction(kind: GraphErrorKind, sending: boolean, failures: number): FailureAction {
  switch (kind) {
    case 'network':
      return 'uncertain'
    case 'throttle':
      return 'throttle'
    case 'auth':
      return 'needs_token'
    case 'page_blocked':
    case 'config':
      return 'stop'
    case 'outside_window':
    case 'recipient_gone':
      return sending ? 'reject' : 'none'
    default:
      if (!sending) return 'wait'
      return failures >= TRANSIENT_MAX_ATTEMPTS ? 'reject' : 'retry'
  }
}
