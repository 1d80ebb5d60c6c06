/**
 * The messaging policy the sandbox enforces, with the network's codes:
 * - current (2026): CONFIRMED_EVENT_UPDATE, POST_PURCHASE_UPDATE, ACCOUNT_UPDATE → 100 "Invalid parameter";
 *   RESPONSE/UPDATE only within 24 h of the customer's last message (else 10/2018278); HUMAN_AGENT up to
 *   7 days and only when the page has the feature (else 10 without subcode).
 * - legacy: the three tags are accepted whatever the window.
 * Blocked customers answer 551/1545041; `can_reply:false` conversations answer 200/1545041.
 */
import { isLegacyTag } from '../core/policy/tags.ts'
import { errors, type SandboxGraphError } from './graph-error.ts'
import type { DemoConversation } from './state/demo.ts'

export const WINDOW_MS = 24 * 3_600_000
export const HUMAN_AGENT_MS = 7 * 24 * 3_600_000
const MESSAGING_TYPES = new Set(['RESPONSE', 'UPDATE', 'MESSAGE_TAG'])

export interface PolicyOptions {
  policy: 'current' | 'legacy'
  humanAgent: boolean
}

/** Parameter-level checks that do not depend on the recipient. */
export function checkTag(
  opts: PolicyOptions,
  messagingType: string,
  tag: string | undefined,
): SandboxGraphError | undefined {
  if (!MESSAGING_TYPES.has(messagingType)) {
    return errors.invalidParam('Param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG}')
  }
  if (messagingType !== 'MESSAGE_TAG')
    return tag ? errors.invalidParam('Param tag is only valid with messaging_type MESSAGE_TAG') : undefined
  if (!tag) return errors.invalidParam('Param tag is required for messaging_type MESSAGE_TAG')
  if (isLegacyTag(tag)) return opts.policy === 'legacy' ? undefined : errors.invalidParam()
  if (tag === 'HUMAN_AGENT') return opts.humanAgent ? undefined : errors.noHumanAgent()
  return errors.invalidParam(
    `Param tag must be one of {HUMAN_AGENT${opts.policy === 'legacy' ? ', CONFIRMED_EVENT_UPDATE, POST_PURCHASE_UPDATE, ACCOUNT_UPDATE' : ''}}`,
  )
}

/** Recipient-level checks, in the network's order: blocked, cannot reply, window. */
export function checkRecipient(
  conv: DemoConversation,
  messagingType: string,
  tag: string | undefined,
  nowMs: number,
): SandboxGraphError | undefined {
  if (conv.blocked) return errors.blocked()
  if (!conv.canReply) return errors.cannotReply()
  const since = nowMs - conv.lastCustomerMs
  if (messagingType === 'MESSAGE_TAG' && tag && isLegacyTag(tag)) return undefined
  if (messagingType === 'MESSAGE_TAG' && tag === 'HUMAN_AGENT')
    return since <= HUMAN_AGENT_MS ? undefined : errors.outsideWindow()
  return since <= WINDOW_MS ? undefined : errors.outsideWindow()
}
