/**
 * The notice of one recipient refused during a bulk send: who (isolated, a name in any script), what it means
 * in the user's language, and the network's own text beside it.
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ASKED_THIS_WEEK, marketingOfReason } from '../../../core/bulk/failure-policy.ts'
import type { BulkMessage } from '../../../device/bulk/protocol.ts'
import { graphErrorText } from '../../../core/graph/error-words.ts'
import type { NotificationInput } from '../../../shared/notifications/model.ts'
import { marketingReasonText } from './marketing-error.ts'

export function rejectionNotice(message: Extract<BulkMessage, { type: 'rejected' }>): NotificationInput {
  const base = {
    kind: 'error',
    title: i18n._(msg`Message rejected`),
    subject: message.recipientName,
    // Kept until closed (docs/product-rules.md#error-catalogue).
    persistent: true,
  } as const
  const marketing = marketingOfReason(message.error)
  if (marketing) return { ...base, message: i18n._(marketingReasonText(marketing)) }
  if (message.error === ASKED_THIS_WEEK)
    return { ...base, message: i18n._(msg`Already asked this week with this title.`) }
  return { ...base, message: graphErrorText(message.kind), detail: message.error }
}
