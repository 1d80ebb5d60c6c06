import { api } from '../../../shared/api/client.ts'
import { storedReferral } from '../../../shared/session/referral.ts'

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
  const res = await api<{ data?: { url?: string }; url?: string }>('/user/subscriptions/checkout', {
    method: 'POST',
    body: {
      price_id: priceId,
      ...(isAddon ? { is_addon: true } : {}),
      success_url: `${root}?success=true`,
      cancel_url: `${root}?success=false`,
      referral: referral ?? codes.referral ?? null,
      coupon: codes.coupon ?? null,
    },
  })
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
