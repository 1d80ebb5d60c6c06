import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { isApiError, notifyApiError, notifyPleaseCheck, silentApi } from '../../../shared/api/client.ts'
import { forgetReferral, storedReferral } from '../../../shared/session/referral.ts'

/** Codes the server said are no referral: not sent again from this tab. */
const refused = new Set<string>()

/** The referral or coupon field a 422 of the checkout refused, when it did. */
function refusedCode(error: unknown): 'referral' | 'coupon' | undefined {
  if (!isApiError(error) || error.status !== 422) return undefined
  const errors = (error.body as { errors?: Record<string, unknown> } | undefined)?.errors ?? {}
  return 'referral' in errors ? 'referral' : 'coupon' in errors ? 'coupon' : undefined
}

/**
 * `POST /api/v2/user/subscriptions/checkout`: both outcomes return to the app root
 * (docs/product-rules.md#routes). The caller opens the window first (inside the click) and points it at the
 * answer, so no popup blocker interferes.
 */
export async function createCheckout(
  priceId: string,
  isAddon: boolean,
  referral?: string | null,
): Promise<string> {
  const codes = storedReferral()
  const root = `${location.origin}/`
  const code = (c: string | null | undefined) => (c && !refused.has(c) ? c : null)
  const sent = { referral: code(referral) ?? code(codes.referral), coupon: code(codes.coupon) }
  let res: { data?: { url?: string }; url?: string } | undefined
  try {
    res = await silentApi('/user/subscriptions/checkout', {
      method: 'POST',
      body: {
        price_id: priceId,
        ...(isAddon ? { is_addon: true } : {}),
        success_url: `${root}?success=true`,
        cancel_url: `${root}?success=false`,
        ...sent,
      },
    })
  } catch (err) {
    const field = refusedCode(err)
    if (field) {
      // A link's code that is no referral is dropped: the next purchase goes through at the full price.
      const bad = sent[field]
      if (bad) refused.add(bad)
      forgetReferral()
      notifyPleaseCheck(i18n._(msg`This referral code is not valid.`))
    } else if (isApiError(err)) notifyApiError(err)
    throw err
  }
  const url = res?.data?.url ?? res?.url
  if (!url) throw new Error('checkout answered without a url')
  return url
}

/** Opens the checkout in a new tab: the tab is opened in the click, then sent to the provider's page. */
export async function openCheckout(
  priceId: string,
  isAddon: boolean,
  referral?: string | null,
): Promise<void> {
  const tab = window.open('about:blank', '_blank')
  if (tab) tab.opener = null
  try {
    const url = await createCheckout(priceId, isAddon, referral)
    if (tab) tab.location.href = url
    else window.open(url, '_blank', 'noopener')
  } catch (err) {
    tab?.close()
    throw err
  }
}
