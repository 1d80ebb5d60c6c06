/**
 * Plans and add-ons (docs/product-rules.md#plans-and-add-ons): the one definition used by the app, the API
 * and the payment providers.
 */
export interface Plan {
  price_id: string
  annual_price_id: string
  title: string
  /** USD per month */
  price: number
  /** USD per year */
  priceAnnually: number
  messages: number
}

export interface AddonPackage {
  id: string
  name: string
  messages: number
  /** USD, one-off */
  price: number
  highlight: boolean
}

/**
 * `price_id` and `annual_price_id` are identifiers stored with subscriptions and known to the payment
 * provider: they never change (the Millionaire plan's keep their old spelling). `title` is the name the
 * server stores as a subscription's product; the screens show it translated (src/shared/ui/plan-name.ts).
 */
export const plans: readonly Plan[] = [
  {
    price_id: 'plan_starter_monthly',
    annual_price_id: 'plan_starter_annual',
    title: 'starter',
    price: 14.99,
    priceAnnually: 149.99,
    messages: 2_000,
  },
  {
    price_id: 'plan_small_business_monthly',
    annual_price_id: 'plan_small_business_annual',
    title: 'small business',
    price: 29.99,
    priceAnnually: 299.99,
    messages: 10_000,
  },
  {
    price_id: 'plan_marketer_monthly',
    annual_price_id: 'plan_marketer_annual',
    title: 'marketer',
    price: 49.99,
    priceAnnually: 499.99,
    messages: 50_000,
  },
  {
    price_id: 'plan_pro_monthly',
    annual_price_id: 'plan_pro_annual',
    title: 'pro',
    price: 99.99,
    priceAnnually: 999.99,
    messages: 200_000,
  },
  {
    price_id: 'plan_500k_monthly',
    annual_price_id: 'plan_500k_annual',
    title: '500k',
    price: 199.99,
    priceAnnually: 1999.99,
    messages: 500_000,
  },
  {
    price_id: 'plan_millionarie_monthly',
    annual_price_id: 'plan_millionarie_annual',
    title: 'millionaire',
    price: 349.99,
    priceAnnually: 3499.99,
    messages: 1_000_000,
  },
  {
    price_id: 'plan_reseller_monthly',
    annual_price_id: 'plan_reseller_annual',
    title: 'reseller',
    price: 499.99,
    priceAnnually: 4999.99,
    messages: 1_500_000,
  },
  {
    price_id: 'plan_enterprise_monthly',
    annual_price_id: 'plan_enterprise_annual',
    title: 'enterprise',
    price: 999.99,
    priceAnnually: 9999.99,
    messages: 3_500_000,
  },
]

export const addons: readonly AddonPackage[] = [
  { id: 'addon_1000', name: '1000 messages', messages: 1_000, price: 7.98, highlight: false },
  { id: 'addon_2000', name: '2000 messages', messages: 2_000, price: 14.98, highlight: false },
  { id: 'addon_10000', name: '10000 messages', messages: 10_000, price: 29.98, highlight: true },
  { id: 'addon_50000', name: '50000 messages', messages: 50_000, price: 49.98, highlight: false },
  { id: 'addon_200000', name: '200000 messages', messages: 200_000, price: 99.98, highlight: false },
  { id: 'addon_600000', name: '600000 messages', messages: 600_000, price: 249.98, highlight: false },
  { id: 'addon_1500000', name: '1500000 messages', messages: 1_500_000, price: 499.98, highlight: false },
]

export type PriceMatch =
  { kind: 'plan'; plan: Plan; interval: 'month' | 'year' } | { kind: 'addon'; addon: AddonPackage }

export function findPrice(priceId: string): PriceMatch | undefined {
  for (const plan of plans) {
    if (plan.price_id === priceId) return { kind: 'plan', plan, interval: 'month' }
    if (plan.annual_price_id === priceId) return { kind: 'plan', plan, interval: 'year' }
  }
  const addon = addons.find((a) => a.id === priceId)
  return addon ? { kind: 'addon', addon } : undefined
}
