/**
 * The API's 406 refusals by code, said in the user's language (docs/product-rules.md#error-catalogue), and
 * the way forward.
 */
import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { REFUSAL_CODES, type RefusalCode } from '../../core/contracts/refusal-codes.ts'
import type { NotificationInput } from '../notifications/model.ts'
import { openModal } from '../ui/modal-stack.ts'

const TEXTS: Record<RefusalCode, MessageDescriptor> = {
  page_banned: msg`This page has been banned. Please contact support.`,
  trial_used: msg`This page has already been used for a trial, in order to use it you have to subscribe.`,
  no_messages: msg`You don't have any messages available`,
  no_access: msg`Your subscription has ended. Please purchase a subscription to send messages.`,
  fair_use_blocked: msg`Your account has been detected violating our fair use policy. Please purchase a messages package to continue sending.`,
  branded_not_authorised: msg`Branded messages have not been authorised for this account.`,
  branded_not_needed: msg`Unlimited subscriptions do not need branded messages.`,
  branded_exhausted: msg`This send has no branded messages left.`,
  addon_needs_subscription: msg`Add-ons need an active subscription. Please subscribe to a plan first.`,
  nothing_to_cancel: msg`There is no paid subscription to cancel.`,
  done_changed: msg`The conversation changed since it was marked done, so it stays as it is now.`,
}

const PERSISTENT: ReadonlySet<RefusalCode> = new Set(['page_banned', 'no_messages'])

function isRefusalCode(code: string): code is RefusalCode {
  return (REFUSAL_CODES as readonly string[]).includes(code)
}

/** What a refusal shows in place of the server's English message; undefined for an unknown code. */
export function refusalNotice(
  code: string,
): Pick<NotificationInput, 'message' | 'persistent' | 'action'> | undefined {
  if (!isRefusalCode(code)) return undefined
  const message = i18n._(TEXTS[code])
  // The used-trial message stays and offers the subscription (docs/product-rules.md#trial-and-banned-pages).
  if (code === 'trial_used')
    return {
      message,
      persistent: true,
      action: { label: i18n._(msg`Buy a subscription`), onClick: () => openModal('plans') },
    }
  // A banned page and an empty allowance stop the owner where they are: kept until closed, like the used trial.
  return PERSISTENT.has(code) ? { message, persistent: true } : { message }
}
