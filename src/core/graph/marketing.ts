/**
 * The Graph calls of marketing messages on Messenger (the network's "Marketing Message API for Messenger"):
 * ad accounts, a page's subscription tokens, message campaigns with a budget, the send of one marketing
 * message to one subscriber, and the opt-in request a page sends inside the 24-hour window. The shapes are
 * the published ones, recorded with their sources in tests/fixtures/graph/marketing/. Every call goes
 * through the same transport as the app's Graph client (client.ts): it resolves with the network's answer or
 * rejects with a classified GraphError whose `marketing` field names the documented error.
 */
import { createGraphTransport, type GraphClientOptions } from './client.ts'
import { GraphError, isGraphError, withMarketing } from './errors.ts'
import type { Page, SendResult } from './types.ts'

export {
  MARKETING_BUSINESS_COUNTRIES,
  MARKETING_EXCLUDED_SUBSCRIBER_COUNTRIES,
  marketingAvailableIn,
} from '../marketing/regions.ts'
export type { MarketingErrorName } from './errors.ts'

/** Asked for only when a page turns marketing messages on (incremental login), never at the first login. */
export const MARKETING_SCOPES = ['ads_management', 'paid_marketing_messages'] as const
/** The App Review permission the network also accepts in place of `paid_marketing_messages`. */
export const MARKETING_SCOPE_ALTERNATIVE = 'marketing_messages_messenger'

export const AD_ACCOUNT_FIELDS = 'id,account_id,name,currency,account_status,business_country_code'
/** `account_status` of an ad account that can spend (1 = ACTIVE; 2 DISABLED, 3 UNSETTLED, …). */
export const AD_ACCOUNT_ACTIVE = 1
/** The Text template's limit. */
export const MARKETING_TEXT_MAX = 640
/** A Generic template element's title limit. */
export const GENERIC_TITLE_MAX = 80
/** The page size of the token list the network allows at most. */
export const SUBSCRIPTION_TOKENS_PAGE_MAX = 1000
/** At most this many pages of ad accounts are read (100 each). */
const AD_ACCOUNT_PAGES_MAX = 20

export interface AdAccount {
  id: string
  account_id: string
  name: string
  currency: string
  account_status: number
  business_country_code?: string
}

export interface SubscriptionTokenEntry {
  notification_messages_token: string
  /** The subscriber's page-scoped id. */
  recipient_id: string
  token_expiry_timestamp?: number
  creation_timestamp?: number
  notification_messages_timezone?: string
  /** The opt-in request's title (the network calls it `topic_title` in this list). */
  title?: string
  /** `REFRESHED` | `NOT_REFRESHED`. */
  user_token_status?: string
  /** When the next marketing message may be sent to this subscriber. */
  next_eligible_time?: number
  notification_messages_reoptin?: string
}

export interface MarketingCampaign {
  id: string
  /** The network's `effective_status` (`ACTIVE`, `PAUSED`, …); `ACTIVE` when it gives none. */
  status: string
  /** Spend so far in the ad account currency's minor units. */
  spendMinor: number
  /** Marketing messages delivered so far. */
  delivered: number
  dailyBudgetMinor?: number
  lifetimeBudgetMinor?: number
}

export interface MarketingSendResult {
  success: boolean
  /** Names this send in the `marketing_message_*` webhooks; the network gives no message id here. */
  marketing_message_tracking_id?: string
}

export interface DeliveryEstimate {
  deliveryLower: number
  deliveryUpper: number
  /** Minor units of the ad account's currency. */
  costLowerMinor: number
  costUpperMinor: number
}

export type Budget = { kind: 'daily' | 'total'; minor: number }

export interface MarketingGraph {
  /** Every ad account the user can use (all pages of `/me/adaccounts`). */
  adAccounts(userToken: string): Promise<AdAccount[]>
  adAccount(id: string, token: string): Promise<AdAccount>
  /** One page of the page's subscription tokens, one per person (`do_not_return_duplicates`). */
  subscriptionTokens(
    pageId: string,
    pageToken: string,
    opts?: { after?: string; limit?: number },
  ): Promise<Page<SubscriptionTokenEntry>>
  createCampaign(
    adAccountId: string,
    token: string,
    input: { name: string; pageId: string; budget: Budget },
  ): Promise<{ id: string }>
  /** Status, budget and spend; `currency` (the ad account's) converts the spend to minor units. */
  campaign(campaignId: string, token: string, currency?: string): Promise<MarketingCampaign>
  /**
   * The network has no separate message object: a send names the campaign as its `message_id`. Kept so
   * callers store one id; answers the campaign's id without a call.
   */
  createMarketingMessage(
    adAccountId: string,
    token: string,
    input: { campaignId: string; pageId: string; name: string; text: string; imageUrl?: string },
  ): Promise<{ id: string }>
  sendMarketingMessage(
    adAccountId: string,
    pageToken: string,
    input: { messageId: string; subscriptionToken: string; text: string; imageUrl?: string },
  ): Promise<MarketingSendResult>
  /** The opt-in request ("Get updates") through the Send API, only inside the 24-hour window. */
  sendOptInRequest(
    pageToken: string,
    psid: string,
    input: { title: string; payload: string; imageUrl?: string; timezone?: string },
  ): Promise<SendResult>
  /** The network's estimate of deliveries and cost for a budget (`/act_{id}/message_delivery_estimate`). */
  deliveryEstimate(
    adAccountId: string,
    token: string,
    input: { pageId: string; budget?: Budget; days?: number },
  ): Promise<DeliveryEstimate>
}

/** Currencies whose Marketing API amounts have no minor unit (offset 1); every other has offset 100. */
const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND'])

/** How many budget units make one unit of the currency (the Marketing API's currency offset). */
export function minorUnitsPerUnit(currency: string | undefined): number {
  return currency && OFFSET_ONE.has(currency.toUpperCase()) ? 1 : 100
}

/** `act_123` for `123` or `act_123`. */
export function adAccountPath(id: string): string {
  return id.startsWith('act_') ? id : `act_${id}`
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Custom-audience tokens carry no recipient id: they cannot be matched to a conversation and are left out. */
export function parseTokenEntry(raw: Record<string, unknown>): SubscriptionTokenEntry | undefined {
  const token = str(raw.notification_messages_token)
  const recipient =
    str(raw.recipient_id) ?? (typeof raw.recipient_id === 'number' ? String(raw.recipient_id) : undefined)
  if (!token || !recipient) return undefined
  const entry: SubscriptionTokenEntry = { notification_messages_token: token, recipient_id: recipient }
  const title = str(raw.topic_title) ?? str(raw.title)
  if (title !== undefined) entry.title = title
  const expiry = num(raw.token_expiry_timestamp)
  if (expiry !== undefined) entry.token_expiry_timestamp = expiry
  const created = num(raw.creation_timestamp)
  if (created !== undefined) entry.creation_timestamp = created
  const next = num(raw.next_eligible_time)
  if (next !== undefined) entry.next_eligible_time = next
  for (const key of [
    'notification_messages_timezone',
    'user_token_status',
    'notification_messages_reoptin',
  ] as const) {
    const v = str(raw[key])
    if (v !== undefined) entry[key] = v
  }
  return entry
}

function budgetParams(budget: Budget): Record<string, number> {
  if (!Number.isSafeInteger(budget.minor) || budget.minor <= 0) {
    throw new GraphError({
      kind: 'config',
      message: 'A budget must be a positive whole number of minor units',
    })
  }
  return budget.kind === 'daily' ? { daily_budget: budget.minor } : { lifetime_budget: budget.minor }
}

/** The `message` of a marketing send: the Text template, or the Generic template with the image. */
export function marketingMessageBody(text: string, imageUrl?: string): Record<string, unknown> {
  if (!imageUrl) return { text }
  const fits = [...text].length <= GENERIC_TITLE_MAX
  const title = fits ? text : `${[...text].slice(0, GENERIC_TITLE_MAX - 1).join('')}…`
  return {
    attachment: {
      type: 'template',
      payload: {
        template_type: 'generic',
        ...(fits ? {} : { text }),
        elements: [{ title, image_url: imageUrl }],
      },
    },
  }
}

/** The Send API body of an opt-in request (`template_type: notification_messages`). */
export function optInRequestBody(
  psid: string,
  input: { title: string; payload: string; imageUrl?: string; timezone?: string },
): Record<string, unknown> {
  return {
    recipient: { id: psid },
    messaging_type: 'RESPONSE',
    message: {
      attachment: {
        type: 'template',
        payload: {
          template_type: 'notification_messages',
          title: input.title,
          payload: input.payload,
          ...(input.imageUrl ? { image_url: input.imageUrl } : {}),
          ...(input.timezone ? { notification_messages_timezone: input.timezone } : {}),
        },
      },
    },
  }
}

export function createMarketingGraph(options: GraphClientOptions): MarketingGraph {
  const { call, paged } = createGraphTransport(options)

  return {
    async adAccounts(userToken) {
      const all: AdAccount[] = []
      let after: string | undefined
      for (let i = 0; i < AD_ACCOUNT_PAGES_MAX; i++) {
        const page = await paged<AdAccount>('me/adaccounts', userToken, {
          fields: AD_ACCOUNT_FIELDS,
          limit: 100,
          after,
        })
        all.push(...page.data)
        after = page.paging?.cursors?.after
        if (!page.paging?.next || !after || page.data.length === 0) break
      }
      return all
    },

    adAccount: (id, token) =>
      call<AdAccount>('GET', adAccountPath(id), { fields: AD_ACCOUNT_FIELDS, access_token: token }),

    async subscriptionTokens(pageId, pageToken, opts = {}) {
      const page = await paged<Record<string, unknown>>(`${pageId}/notification_message_tokens`, pageToken, {
        limit: Math.min(opts.limit ?? SUBSCRIPTION_TOKENS_PAGE_MAX, SUBSCRIPTION_TOKENS_PAGE_MAX),
        do_not_return_duplicates: 'true',
        after: opts.after,
      })
      const data = page.data.flatMap((raw) => {
        const entry = raw && typeof raw === 'object' ? parseTokenEntry(raw) : undefined
        return entry ? [entry] : []
      })
      return page.paging ? { data, paging: page.paging } : { data }
    },

    async createCampaign(adAccountId, token, input) {
      const r = await call<{ id: string }>(
        'POST',
        `${adAccountPath(adAccountId)}/message_campaign`,
        { access_token: token },
        { name: input.name, page_id: input.pageId, ...budgetParams(input.budget) },
      )
      return { id: String(r.id) }
    },

    async campaign(campaignId, token, currency) {
      const [info, insights] = await Promise.all([
        call<Record<string, unknown>>('GET', campaignId, {
          fields: 'id,effective_status,adset{daily_budget,lifetime_budget}',
          access_token: token,
        }),
        call<{ data?: Record<string, unknown>[] }>('GET', `${campaignId}/insights`, {
          fields: 'marketing_messages_spend,marketing_messages_delivered',
          access_token: token,
        }),
      ])
      const row = insights.data?.[0] ?? {}
      const spend = num(row.marketing_messages_spend) ?? 0
      const adset = (info.adset ?? {}) as Record<string, unknown>
      const result: MarketingCampaign = {
        id: str(info.id) ?? campaignId,
        status: str(info.effective_status) ?? str(info.status) ?? 'ACTIVE',
        spendMinor: Math.round(spend * minorUnitsPerUnit(currency)),
        delivered: num(row.marketing_messages_delivered) ?? 0,
      }
      const daily = num(adset.daily_budget)
      const lifetime = num(adset.lifetime_budget)
      if (daily) result.dailyBudgetMinor = daily
      if (lifetime) result.lifetimeBudgetMinor = lifetime
      return result
    },

    createMarketingMessage: (_adAccountId, _token, input) => Promise.resolve({ id: input.campaignId }),

    sendMarketingMessage: (adAccountId, pageToken, input) =>
      call<MarketingSendResult>(
        'POST',
        `${adAccountPath(adAccountId)}/messages`,
        { access_token: pageToken },
        {
          message_id: input.messageId,
          messenger_delivery_data: { subscription_token: input.subscriptionToken },
          message: marketingMessageBody(input.text, input.imageUrl),
        },
      ).then((r) => ({
        success: r.success === true,
        ...(r.marketing_message_tracking_id
          ? { marketing_message_tracking_id: String(r.marketing_message_tracking_id) }
          : {}),
      })),

    async sendOptInRequest(pageToken, psid, input) {
      try {
        const r = await call<SendResult & { recipient?: { id?: string; message_id?: string } }>(
          'POST',
          'me/messages',
          { access_token: pageToken },
          optInRequestBody(psid, input),
        )
        // The marketing pages print `{ recipient: { id, message_id } }`; the Send API answers flat.
        return {
          recipient_id: r.recipient_id ?? r.recipient?.id ?? psid,
          message_id: r.message_id ?? r.recipient?.message_id ?? '',
        }
      } catch (err) {
        if (isGraphError(err) && err.kind === 'outside_window' && !err.marketing) {
          throw withMarketing(err, 'outside_window')
        }
        throw err
      }
    },

    async deliveryEstimate(adAccountId, token, input) {
      const r = await call<{ data?: Record<string, unknown>[] }>(
        'GET',
        `${adAccountPath(adAccountId)}/message_delivery_estimate`,
        {
          fields:
            'estimate_delivery_upper_bound,estimate_delivery_lower_bound,estimate_cost_upper_bound,estimate_cost_lower_bound',
          is_direct_send_campaign: 'true',
          pacing_type: 'no_pacing',
          promoted_object: JSON.stringify({ page_id: input.pageId }),
          targeting_spec: JSON.stringify({
            publisher_platforms: ['messenger'],
            messenger_positions: ['marketing_messages'],
          }),
          lifetime_in_days: input.days,
          ...(input.budget ? budgetParams(input.budget) : {}),
          access_token: token,
        },
      )
      const row = r.data?.[0] ?? {}
      return {
        deliveryLower: num(row.estimate_delivery_lower_bound) ?? 0,
        deliveryUpper: num(row.estimate_delivery_upper_bound) ?? 0,
        costLowerMinor: num(row.estimate_cost_lower_bound) ?? 0,
        costUpperMinor: num(row.estimate_cost_upper_bound) ?? 0,
      }
    },
  }
}
