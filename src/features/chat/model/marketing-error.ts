/** The text of a refusal the network documents for opt-in requests (GraphError's `marketing` name), if any. */
import type { MessageDescriptor } from '@lingui/core'
import { marketingErrorText } from '../../../shared/marketing/error-texts.ts'

export function marketingRefusalText(err: unknown): MessageDescriptor | undefined {
  const named = (err as { marketing?: unknown } | null)?.marketing
  if (typeof named !== 'string') return undefined
  return marketingErrorText(named as Parameters<typeof marketingErrorText>[0])
}
