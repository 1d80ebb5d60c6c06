/**
 * The words for a marketing stop reason or start refusal (`marketing:<name>`): the network's documented errors
 * and the product's own refusals come from the shared marketing error texts; the two the wizard adds (the
 * server could not be reached, or it refused without a name) are here.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { marketingErrorText } from '../../../shared/marketing/error-texts.ts'

export function marketingReasonText(name: string): MessageDescriptor {
  switch (name) {
    case 'no_connection':
      return msg`The server could not be reached, so the marketing send did not start. Nothing was sent.`
    case 'start_failed':
    case '':
      return msg`The marketing send could not start. Nothing was sent.`
    default:
      return (
        marketingErrorText(name as Parameters<typeof marketingErrorText>[0]) ??
        msg`The marketing send could not start. Nothing was sent.`
      )
  }
}
