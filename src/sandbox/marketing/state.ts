/**
 * The marketing-messages world of the sandbox: ad accounts, campaigns and their marketing messages, the
 * subscription tokens customers gave the pages, the opt-in requests delivered and the spend. Seeded from the
 * same seed as the demo pages; `load()` puts it back as seeded (POST /sandbox/reset).
 */
import { randomBytes } from 'node:crypto'
import {
  demoConversationsAt,
  demoPageIds,
  demoPages,
  demoReachable,
  largeShape,
  type UserKey,
} from '../state/demo.ts'
import { int, mulberry32, numericId, type Rng, subSeed } from '../state/prng.ts'

const DAY = 86_400_000

/** `account_status` values of the network's ad account. */
export const ACCOUNT_STATUS = { ACTIVE: 1, DISABLED: 2, UNSETTLED: 3 } as const

/** Business countries the network serves with marketing messages on Messenger. */
export const SERVED_COUNTRIES: readonly string[] = [
  'AU', 'BR', 'CL', 'CO', 'HK', 'IN', 'ID', 'IL', 'MY', 'MX',
  'NZ', 'PE', 'PH', 'SA', 'SG', 'TW', 'TH', 'AE', 'US', 'VN',
] // prettier-ignore

/**
 * The sandbox's price of one delivered marketing message, in the currency's minor unit (the unit budgets are
 * given in). A sandbox rate card: the network bills per delivered message by the market of the ad account.
 */
export const PRICE_MINOR: Readonly<Record<string, number>> = {
  MXN: 85,
  USD: 5,
  EUR: 5,
  BRL: 25,
  INR: 350,
  IDR: 750,
  PHP: 250,
  PKR: 1_400,
}
export const DEFAULT_PRICE_MINOR = 5

/**
 * The sandbox's `min_daily_budget_imp` per currency (`GET /act_{id}/minimum_budgets`); a lifetime budget must be at
 * least 30 times it, as the network documents.
 */
export const MIN_DAILY_BUDGET_MINOR: Readonly<Record<string, number>> = {
  MXN: 100,
  USD: 10,
  EUR: 10,
  BRL: 30,
  INR: 400,
  IDR: 1_000,
  PHP: 300,
  PKR: 1_500,
}
export const LIFETIME_MIN_DAYS = 30

export function minDailyBudgetOf(currency: string): number {
  return MIN_DAILY_BUDGET_MINOR[currency] ?? 10
}

/** Currencies the network counts in whole units (offset 1); every other in hundredths (offset 100). */
const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND'])

/** Minor units (budgets) to the currency-unit decimal string the insights report. */
export function unitsOf(minor: number, currency: string): string {
  return OFFSET_ONE.has(currency) ? minor.toFixed(2) : (minor / 100).toFixed(2)
}

/** The network keeps one marketing message per subscription token per 12 hours. */
export const TOKEN_SEND_INTERVAL_MS = 12 * 3_600_000

export function priceOf(currency: string): number {
  return PRICE_MINOR[currency] ?? DEFAULT_PRICE_MINOR
}

export interface AdAccountRecord {
  id: string
  account_id: string
  name: string
  currency: string
  account_status: number
  business_country_code: string
  owner: UserKey
}

export type CampaignStatus = 'ACTIVE' | 'PAUSED'

export interface CampaignRecord {
  id: string
  name: string
  adAccountId: string
  pageId: string
  budgetKind: 'daily' | 'lifetime'
  budgetMinor: number
  status: CampaignStatus
  createdMs: number
}

export interface SubscriptionToken {
  token: string
  pageId: string
  psid: string
  title: string
  payload: string
  status: 'active' | 'stopped'
  createdMs: number
  expiryMs: number
  timezone: string
  frequency?: string
  /** When the person opted out last (stop), or back in (resume). */
  changedMs: number
}

export interface SendRecord {
  page_id: string
  psid: string
  kind: 'marketing' | 'optin_request'
  text?: string
  title?: string
  image_url?: string
  /** The Messenger message id (`mid`) of the message in the conversation. */
  message_id: string
  campaign_id?: string
  marketing_message_tracking_id?: string
  price_minor?: number
  currency?: string
  /** The subscription token used (never shown by the inspection endpoints). */
  token?: string
  at: string
  atMs: number
}

/** An opt-in request as delivered (the template's fields), what an opt-in later answers. */
export interface DeliveredRequest {
  pageId: string
  psid: string
  title: string
  payload: string
  frequency?: string
  timezone?: string
  sentMs: number
}

export const DEMO_SUBSCRIBERS_OUTSIDE = 40
export const DEMO_SUBSCRIBERS_INSIDE = 12
export const DEMO_OPTIN_TITLE = 'Updates and promotions'
const TIMEZONES = ['America/Mexico_City', 'Asia/Jakarta', 'Asia/Manila', 'Asia/Kolkata']
/** Tokens no longer expire (since 2023-08-10); the list still reports an expiry, this far off. */
export const TOKEN_LIFE_MS = 10 * 365 * DAY

function tokenFrom(rng: Rng): string {
  let s = ''
  while (s.length < 40) s += Math.floor(rng() * 36).toString(36)
  return `NMT${s}`
}

export class MarketingState {
  adAccounts = new Map<string, AdAccountRecord>()
  campaigns = new Map<string, CampaignRecord>()
  /** Every token issued, oldest first (a person may hold several: one per title). */
  tokens: SubscriptionToken[] = []
  requests: DeliveredRequest[] = []
  sends: SendRecord[] = []
  private counter = 0

  constructor(
    readonly seed: number,
    private readonly startMs: () => number,
    /** How many conversations the large demo page has (the store's). */
    private readonly largeConversations?: number,
  ) {
    this.load()
  }

  load(): void {
    const rng = mulberry32(subSeed(this.seed, 'marketing:accounts'))
    const account = (
      owner: UserKey,
      name: string,
      currency: string,
      country: string,
      status: number,
    ): AdAccountRecord => {
      const accountId = numericId(rng, 15)
      return {
        id: `act_${accountId}`,
        account_id: accountId,
        name,
        currency,
        account_status: status,
        business_country_code: country,
        owner,
      }
    }
    this.adAccounts = new Map(
      [
        account('demo', 'Tienda Sol Ads', 'MXN', 'MX', ACCOUNT_STATUS.ACTIVE),
        account('demo', 'Sol Europe', 'EUR', 'DE', ACCOUNT_STATUS.ACTIVE),
        account('demo', 'Old account', 'USD', 'US', ACCOUNT_STATUS.DISABLED),
        account('second', 'Lahore Textiles Ads', 'PKR', 'PK', ACCOUNT_STATUS.ACTIVE),
      ].map((a) => [a.id, a]),
    )
    this.campaigns = new Map()
    this.requests = []
    this.sends = []
    this.tokens = this.seedTokens()
  }

  /**
   * Customers of the large demo page who opted in before the start: some outside the 24-hour window, a few
   * inside it, and the first of those outside stopped them since.
   */
  private seedTokens(): SubscriptionToken[] {
    const ids = demoPageIds(this.seed)
    const page = demoPages(this.seed).find((p) => p.id === ids.large)!
    const start = this.startMs()
    const reach = demoReachable(this.seed, page, start, this.largeConversations)
    const shape = largeShape(this.largeConversations)
    const rng = mulberry32(subSeed(this.seed, 'marketing:subscribers'))
    const reachable = (i: number) => reach[i] === 1
    const chosen = (from: number, to: number, count: number): number[] => {
      const pool: number[] = []
      for (let i = from; i < to; i++) if (reachable(i)) pool.push(i)
      const out: number[] = []
      while (out.length < count && pool.length) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]!)
      return out.sort((a, b) => a - b)
    }
    const outside = chosen(shape.inDay, reach.length, DEMO_SUBSCRIBERS_OUTSIDE)
    const inside = chosen(0, shape.inDay, DEMO_SUBSCRIBERS_INSIDE)
    const subscribers = [...outside, ...inside]
    const convs = demoConversationsAt(this.seed, page, start, subscribers, this.largeConversations)
    return subscribers.map((i, n) => {
      const createdMs = start - int(rng, 2 * DAY, 60 * DAY)
      const stopped = n === 0
      return {
        token: tokenFrom(rng),
        pageId: page.id,
        psid: convs.get(i)!.customer.id,
        title: DEMO_OPTIN_TITLE,
        payload: 'demo-optin',
        status: stopped ? 'stopped' : 'active',
        createdMs,
        expiryMs: createdMs + TOKEN_LIFE_MS,
        timezone: TIMEZONES[n % TIMEZONES.length]!,
        frequency: 'WEEKLY',
        changedMs: stopped ? start - DAY : createdMs,
      }
    })
  }

  nextId(): string {
    this.counter++
    return `${Date.now()}${String(this.counter % 100_000).padStart(5, '0')}`
  }

  newToken(): string {
    return `NMT${randomBytes(20).toString('hex')}`
  }

  accountsOf(user: UserKey): AdAccountRecord[] {
    return [...this.adAccounts.values()].filter((a) => a.owner === user)
  }

  tokenRecord(token: string): SubscriptionToken | undefined {
    return this.tokens.find((t) => t.token === token)
  }

  tokensOf(pageId: string, psid: string): SubscriptionToken[] {
    return this.tokens.filter((t) => t.pageId === pageId && t.psid === psid)
  }

  isLive(t: SubscriptionToken, nowMs: number): boolean {
    return t.status === 'active' && nowMs < t.expiryMs
  }

  /** The last marketing message sent with a token. */
  lastSendWith(token: string): SendRecord | undefined {
    for (let i = this.sends.length - 1; i >= 0; i--) if (this.sends[i]!.token === token) return this.sends[i]
    return undefined
  }

  lastRequest(pageId: string, psid: string, title?: string): DeliveredRequest | undefined {
    for (let i = this.requests.length - 1; i >= 0; i--) {
      const r = this.requests[i]!
      if (r.pageId === pageId && r.psid === psid && (title === undefined || r.title === title)) return r
    }
    return undefined
  }

  /** Spend of a campaign in minor units: all of it, or the UTC day of `dayOfMs` only. */
  spendOf(campaignId: string, dayOfMs?: number): number {
    const day = dayOfMs === undefined ? undefined : Math.floor(dayOfMs / DAY)
    return this.sends
      .filter((s) => s.campaign_id === campaignId && (day === undefined || Math.floor(s.atMs / DAY) === day))
      .reduce((sum, s) => sum + (s.price_minor ?? 0), 0)
  }

  sentOf(campaignId: string): number {
    return this.sends.filter((s) => s.campaign_id === campaignId).length
  }
}
