/**
 * Referral and coupon codes from the landing URL (`?referral=` or `?ref=`, `?coupon=`), kept for the tab's
 * life and sent with login and checkout. They are not credentials, so sessionStorage is fine.
 */
const KEY = 'pagecast-referral'

export interface ReferralCodes {
  referral?: string
  coupon?: string
}

const CODE = /^[\w-]{1,100}$/

export function parseReferral(search: string): ReferralCodes {
  const params = new URLSearchParams(search)
  const referral = params.get('referral') ?? params.get('ref') ?? undefined
  const coupon = params.get('coupon') ?? undefined
  return {
    referral: referral && CODE.test(referral) ? referral : undefined,
    coupon: coupon && CODE.test(coupon) ? coupon : undefined,
  }
}

export function captureReferral(search: string = location.search): ReferralCodes {
  const found = parseReferral(search)
  const kept = storedReferral()
  const merged = { referral: found.referral ?? kept.referral, coupon: found.coupon ?? kept.coupon }
  if (merged.referral || merged.coupon) sessionStorage.setItem(KEY, JSON.stringify(merged))
  return merged
}

export function storedReferral(): ReferralCodes {
  try {
    const raw = sessionStorage.getItem(KEY)
    const parsed: unknown = raw ? JSON.parse(raw) : {}
    return parsed && typeof parsed === 'object' ? (parsed as ReferralCodes) : {}
  } catch {
    return {}
  }
}

/** Drops the codes kept from the landing URL (one the server refused). */
export function forgetReferral(): void {
  try {
    sessionStorage.removeItem(KEY)
  } catch {
    // Storage unavailable: nothing was kept.
  }
}
