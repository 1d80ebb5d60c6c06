/**
 * The text shown for a refusal of turning marketing messages on: the server's 422 names a code per field
 * (`errors.ad_account_id = ['region_unavailable']`) or in `code`; each reads as the shared marketing error text.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { marketingErrorText } from '../../../shared/marketing/error-texts.ts'

const fallback = msg`Marketing messages could not be turned on. Please try again.`

/** The codes of a 422 body, most specific first. */
export function refusalCodes(body: unknown): string[] {
  if (!body || typeof body !== 'object') return []
  const b = body as { code?: unknown; errors?: Record<string, unknown> }
  const codes: string[] = []
  if (typeof b.code === 'string') codes.push(b.code)
  for (const list of Object.values(b.errors ?? {}))
    if (Array.isArray(list)) for (const c of list) if (typeof c === 'string') codes.push(c)
  return [...new Set(codes)]
}

/** A localised text for a 422 body; the generic one when no code has a text. */
export function refusalText(body: unknown): MessageDescriptor {
  for (const code of refusalCodes(body)) {
    try {
      const text = marketingErrorText(code as Parameters<typeof marketingErrorText>[0])
      if (text) return text
    } catch {
      // A code the shared texts do not know: the next one, or the generic text.
    }
  }
  return fallback
}
