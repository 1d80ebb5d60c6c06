/**
 * The Graph side of marketing messages on Messenger: ad accounts (`/me/adaccounts`, `/act_{id}`, its
 * `minimum_budgets` and `message_delivery_estimate`), campaigns (`POST /act_{id}/message_campaign`,
 * `GET|DELETE /{campaign-id}`, `/{campaign-id}/insights`), sends (`POST /act_{id}/messages` with the campaign id
 * as `message_id`: there is no separate "create message" call) and the page's subscription tokens
 * (`GET /{page-id}/notification_message_tokens`, `GET /notification_messages_{token}`). Registered inside the
 * Graph routes, so faults and the Graph error handler apply.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { authenticate, authenticatePage, type SandboxContext } from '../context.ts'
import { sendFault } from '../faults.ts'
import { fieldsOrDefault, project, type GraphNode } from '../fields.ts'
import { errors, SandboxGraphError } from '../graph-error.ts'
import { limitOf, paginate } from '../paging.ts'
import { jsonField } from '../fields.ts'
import { graphParams } from '../params.ts'
import { graphTime } from '../routes/nodes.ts'
import { deleteLabel, isLabelId, readLabel } from '../routes/graph-labels.ts'
import { managesPage } from '../state/demo.ts'
import type { TokenInfo } from '../state/tokens.ts'
import { mmErrors } from './errors.ts'
import {
  ACCOUNT_STATUS,
  LIFETIME_MIN_DAYS,
  minDailyBudgetOf,
  priceOf,
  SERVED_COUNTRIES,
  TOKEN_SEND_INTERVAL_MS,
  unitsOf,
  type AdAccountRecord,
  type CampaignRecord,
  type SubscriptionToken,
} from './state.ts'

type Json = Record<string, unknown>

const LIFETIME_SCHEDULE_MS = 30 * 86_400_000
type Q = Record<string, string | undefined>

export const ADS_MANAGEMENT = 'ads_management'
export const PAID_MARKETING_MESSAGES = 'paid_marketing_messages'
const TOKENS_LIMIT_DEFAULT = 100
const TOKENS_LIMIT_MAX = 1_000
/** The Text template's limit; the Generic template's element title is at most 80. */
const TEXT_MAX = 640
const TITLE_MAX = 80

function requireScopes(info: TokenInfo, scopes: string[]): void {
  for (const s of scopes) if (!info.granted.includes(s)) throw mmErrors.needsPermission(s)
}

/** A non-negative integer given as a number or a numeric string (form posts). */
function intOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

const seconds = (ms: number) => Math.floor(ms / 1000)

export function adAccountNode(a: AdAccountRecord): GraphNode {
  return {
    id: a.id,
    account_id: a.account_id,
    name: a.name,
    currency: a.currency,
    account_status: a.account_status,
    business_country_code: a.business_country_code,
  }
}

/** A send's content: the Text template, or the Generic template with one image element. */
function contentOf(message: Json | undefined): { text?: string; title?: string; imageUrl?: string } {
  if (!message) throw mmErrors.invalidPayload('the parameter message is required')
  const attachment = jsonField(message.attachment)
  if (typeof message.text === 'string') {
    if (attachment) throw errors.invalidParam('Only one of text or attachment may be set')
    if (!message.text || message.text.length > TEXT_MAX)
      throw mmErrors.invalidPayload(`message[text] must have 1 to ${TEXT_MAX} characters`)
    return { text: message.text }
  }
  const payload = jsonField(attachment?.payload)
  if (attachment?.type !== 'template' || payload?.template_type !== 'generic')
    throw mmErrors.invalidPayload('message must have text or a generic template')
  const elements = Array.isArray(payload.elements) ? (payload.elements as unknown[]) : []
  const element = jsonField(elements[0])
  const title = typeof element?.title === 'string' ? element.title : ''
  const imageUrl = typeof element?.image_url === 'string' ? element.image_url : undefined
  if (elements.length !== 1 || !title || title.length > TITLE_MAX)
    throw mmErrors.invalidPayload(`one element with a title of 1 to ${TITLE_MAX} characters is required`)
  if (imageUrl !== undefined && !/^https?:\/\//.test(imageUrl))
    throw mmErrors.invalidPayload('image_url must be a URL')
  const text = typeof payload.text === 'string' && payload.text ? payload.text.slice(0, TEXT_MAX) : undefined
  return { title, ...(text ? { text } : {}), ...(imageUrl ? { imageUrl } : {}) }
}

export function registerMarketingGraph(app: FastifyInstance, ctx: SandboxContext): void {
  const mk = () => ctx.marketing

  /** The ad account `act_{adId}` if the token's user can use it (else the network's unknown object). */
  function accountFor(adId: string, info: TokenInfo): AdAccountRecord {
    const account = mk().adAccounts.get(`act_${adId}`)
    if (!account || account.owner !== info.user) throw errors.unknownObject(`act_${adId}`)
    return account
  }

  /** A campaign the token's user may read, or the network's unknown object. */
  function campaignFor(id: string, info: TokenInfo): CampaignRecord {
    const campaign = mk().campaigns.get(id)
    if (!campaign || mk().adAccounts.get(campaign.adAccountId)?.owner !== info.user)
      throw errors.unknownObject(id)
    return campaign
  }

  function campaignNode(c: CampaignRecord): GraphNode {
    return {
      id: c.id,
      name: c.name,
      campaign: { id: c.id, name: c.name },
      adset: {
        name: c.name,
        daily_budget: String(c.budgetKind === 'daily' ? c.budgetMinor : 0),
        lifetime_budget: String(c.budgetKind === 'lifetime' ? c.budgetMinor : 0),
        start_time: graphTime(c.createdMs),
        // A lifetime budget runs over the campaign's schedule (the sandbox gives it 30 days).
        ...(c.budgetKind === 'lifetime' ? { end_time: graphTime(c.createdMs + LIFETIME_SCHEDULE_MS) } : {}),
      },
      creative: { actor_id: c.pageId },
      status: c.status,
      effective_status: c.status,
    }
  }

  app.get('/graph/:version/me/adaccounts', async (request) => {
    const q = request.query as Q
    const { info } = authenticate(ctx, request)
    if (info.kind !== 'user')
      throw errors.invalidParam('Tried accessing nonexisting field (adaccounts) on node type (Page)')
    requireScopes(info, [ADS_MANAGEMENT])
    const accounts = mk().accountsOf(info.user)
    const specs = fieldsOrDefault(q.fields, 'account_id,id')
    const page = paginate(request, accounts, (a) => `~${a.account_id}`, {
      limit: limitOf(q.limit, 25, 100),
      after: q.after,
      before: q.before,
    })
    return { ...page, data: page.data.map((a) => project(adAccountNode(a), specs)) }
  })

  app.get('/graph/:version/act_:adId', async (request) => {
    const { adId } = request.params as { adId: string }
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    const account = accountFor(adId, info)
    return project(adAccountNode(account), fieldsOrDefault((request.query as Q).fields, 'id,account_id'))
  })

  app.get('/graph/:version/act_:adId/minimum_budgets', async (request) => {
    const { adId } = request.params as { adId: string }
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    const account = accountFor(adId, info)
    const min = minDailyBudgetOf(account.currency)
    return {
      data: [
        {
          currency: account.currency,
          min_daily_budget_imp: min,
          min_daily_budget_video_views: min,
          min_daily_budget_high_freq: min * 5,
          min_daily_budget_low_freq: min * 5,
        },
      ],
    }
  })

  /**
   * How many of the page's subscribers a budget reaches and what it costs (minor units), from the sandbox's
   * price per delivered message; the lower bounds are 80% of the upper ones.
   */
  app.get('/graph/:version/act_:adId/message_delivery_estimate', async (request) => {
    const { adId } = request.params as { adId: string }
    const q = request.query as Q
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    const account = accountFor(adId, info)
    const promoted = jsonField(q.promoted_object)
    const pageId = typeof promoted?.page_id === 'string' ? promoted.page_id : ''
    if (!pageId) throw mmErrors.pageIdMissing()
    const daily = intOf(q.daily_budget)
    const lifetime = intOf(q.lifetime_budget)
    if (!daily && !lifetime) throw mmErrors.noBudget()
    const days = intOf(q.lifetime_in_days) || 1
    const budget = daily ? daily * days : lifetime!
    const now = Date.now()
    const subscribers = new Set(
      mk()
        .tokens.filter((t) => t.pageId === pageId && mk().isLive(t, now))
        .map((t) => t.psid),
    ).size
    const price = priceOf(account.currency)
    const upper = Math.min(subscribers, Math.floor(budget / price))
    const lower = Math.floor(upper * 0.8)
    const node: GraphNode = {
      estimate_delivery_upper_bound: upper,
      estimate_delivery_lower_bound: lower,
      estimate_cost_upper_bound: upper * price,
      estimate_cost_lower_bound: lower * price,
    }
    return {
      data: [
        project(
          node,
          fieldsOrDefault(
            q.fields,
            'estimate_delivery_upper_bound,estimate_delivery_lower_bound,estimate_cost_upper_bound,estimate_cost_lower_bound',
          ),
        ),
      ],
    }
  })

  /** One subscription token. */
  app.get('/graph/:version/notification_messages_:token', async (request) => {
    const { token } = request.params as { token: string }
    const { pageId } = authenticatePage(ctx, request, 'me')
    const t = mk().tokenRecord(token)
    if (!t || t.pageId !== pageId || !mk().isLive(t, Date.now()))
      throw errors.unknownObject(`notification_messages_${token}`)
    return project(
      tokenEntry(t),
      fieldsOrDefault((request.query as Q).fields, 'notification_messages_token,recipient_id,topic_title'),
    )
  })

  /** A campaign or a custom label by id; anything else is an unknown path, as before this edge. */
  app.get('/graph/:version/:id', async (request) => {
    const { id } = request.params as { id: string }
    if (isLabelId(ctx, id)) return readLabel(ctx, request, id)
    if (!mk().campaigns.has(id))
      throw new SandboxGraphError(`Unknown path components: ${request.url.split('?')[0]}`, 2500)
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    const campaign = campaignFor(id, info)
    return project(campaignNode(campaign), fieldsOrDefault((request.query as Q).fields, 'id'))
  })

  app.delete('/graph/:version/:id', async (request) => {
    const { id } = request.params as { id: string }
    if (isLabelId(ctx, id)) return deleteLabel(ctx, request, id)
    if (!mk().campaigns.has(id))
      throw new SandboxGraphError(`Unknown path components: ${request.url.split('?')[0]}`, 2500)
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    campaignFor(id, info)
    mk().campaigns.delete(id)
    return { success: true }
  })

  /**
   * Spend as the insights edge reports it: `marketing_messages_spend` a decimal string in currency units,
   * `marketing_messages_delivered` a numeric string; no row before the first delivery.
   */
  app.get('/graph/:version/:id/insights', async (request) => {
    const { id } = request.params as { id: string }
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT])
    const campaign = campaignFor(id, info)
    const sent = mk().sentOf(campaign.id)
    if (sent === 0) return { data: [] }
    const account = mk().adAccounts.get(campaign.adAccountId)!
    const spent = mk().spendOf(campaign.id)
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const node: GraphNode = {
      marketing_messages_spend: unitsOf(spent, account.currency),
      marketing_messages_delivered: String(sent),
      marketing_messages_cost_per_delivered: unitsOf(Math.round(spent / sent), account.currency),
      // The sandbox's customers read their messages but never tap a button in them.
      marketing_messages_delivery_rate: '100',
      marketing_messages_read_rate: '0',
      marketing_messages_link_btn_click: '0',
      marketing_messages_link_btn_click_rate: '0',
      marketing_messages_cost_per_link_btn_click: '0',
      date_start: day(campaign.createdMs),
      date_stop: day(Date.now()),
    }
    const specs = fieldsOrDefault((request.query as Q).fields, 'marketing_messages_spend')
    return {
      data: [{ ...project(node, specs), date_start: node.date_start, date_stop: node.date_stop }],
      paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } },
    }
  })

  app.post('/graph/:version/act_:adId/message_campaign', async (request) => {
    const { adId } = request.params as { adId: string }
    const p = graphParams(request)
    const { info } = authenticate(ctx, request)
    requireScopes(info, [ADS_MANAGEMENT, PAID_MARKETING_MESSAGES])
    const account = accountFor(adId, info)
    const name = typeof p.name === 'string' ? p.name.trim() : ''
    if (!name) throw errors.invalidParam('The parameter name is required')
    const pageId =
      typeof p.page_id === 'string' ? p.page_id : typeof p.page_id === 'number' ? String(p.page_id) : ''
    if (!pageId) throw mmErrors.pageIdMissing()
    const page = ctx.store.pages.get(pageId)
    if (!page || !managesPage(page, info.user)) throw errors.unknownObject(pageId)
    if (info.kind === 'page' && info.pageId !== pageId) throw errors.unknownObject(pageId)
    const daily = p.daily_budget
    const lifetime = p.lifetime_budget
    if (daily === undefined && lifetime === undefined) throw mmErrors.noBudget()
    if (daily !== undefined && lifetime !== undefined)
      throw errors.invalidParam('Only one of daily_budget or lifetime_budget may be set')
    const budget = intOf(daily ?? lifetime)
    if (!budget)
      throw errors.invalidParam(
        `Param ${daily !== undefined ? 'daily_budget' : 'lifetime_budget'} must be an integer greater than 0`,
      )
    if (account.account_status !== ACCOUNT_STATUS.ACTIVE)
      throw mmErrors.accountNotActive(account.account_status)
    if (!SERVED_COUNTRIES.includes(account.business_country_code))
      throw mmErrors.adAccountRegion(account.business_country_code)
    const min = minDailyBudgetOf(account.currency) * (daily !== undefined ? 1 : LIFETIME_MIN_DAYS)
    if (budget < min) throw mmErrors.budgetTooLow(min)
    const campaign: CampaignRecord = {
      id: mk().nextId(),
      name: name.slice(0, 400),
      adAccountId: account.id,
      pageId,
      budgetKind: daily !== undefined ? 'daily' : 'lifetime',
      budgetMinor: budget,
      status: 'ACTIVE',
      createdMs: Date.now(),
    }
    mk().campaigns.set(campaign.id, campaign)
    return { id: campaign.id }
  })

  /**
   * Sends the campaign's message (`message_id` is the campaign id) to one subscriber, charging the campaign the
   * sandbox's price per delivered message. Refusals in this order: permissions, faults, message id, ad account,
   * campaign active, page, token (unknown, other page, stopped), 12-hour delay, budget, content.
   */
  app.post('/graph/:version/act_:adId/messages', async (request) => {
    const { adId } = request.params as { adId: string }
    const p = graphParams(request)
    const { info, pageId } = authenticatePage(ctx, request, 'me')
    if (!info.granted.includes('pages_messaging')) throw errors.needsMessaging()
    requireScopes(info, [ADS_MANAGEMENT, PAID_MARKETING_MESSAGES])
    const fault = sendFault(ctx.faults, ++ctx.faultSends)
    if (fault) throw fault
    const messageId =
      typeof p.message_id === 'string'
        ? p.message_id
        : typeof p.message_id === 'number'
          ? String(p.message_id)
          : ''
    const campaign = mk().campaigns.get(messageId)
    if (!campaign) throw mmErrors.invalidMessageId()
    const account = accountFor(adId, info)
    if (campaign.adAccountId !== account.id) throw mmErrors.adAccountMismatch()
    if (campaign.status !== 'ACTIVE' || account.account_status !== ACCOUNT_STATUS.ACTIVE)
      throw mmErrors.inactiveCampaign()
    if (campaign.pageId !== pageId) throw mmErrors.pageMismatch()
    const delivery = jsonField(p.messenger_delivery_data)
    const raw = delivery?.subscription_token
    if (typeof raw !== 'string' || !raw) throw mmErrors.invalidToken()
    const token: SubscriptionToken | undefined = mk().tokenRecord(raw)
    if (!token) throw mmErrors.invalidToken()
    if (token.pageId !== pageId) throw mmErrors.pageMismatch()
    const now = Date.now()
    // After an opt-out the token no longer loads (and is no longer listed).
    if (!mk().isLive(token, now)) throw mmErrors.invalidToken()
    const last = mk().lastSendWith(token.token)
    if (last && now - last.atMs < TOKEN_SEND_INTERVAL_MS) throw mmErrors.minDelay()
    const price = priceOf(account.currency)
    if (campaign.budgetKind === 'daily') {
      if (mk().spendOf(campaign.id, now) + price > campaign.budgetMinor) throw mmErrors.dailyBudgetReached()
    } else if (mk().spendOf(campaign.id) + price > campaign.budgetMinor)
      throw mmErrors.lifetimeBudgetReached()
    const content = contentOf(jsonField(p.message))
    const conv = ctx.store.conversationWith(pageId, token.psid)
    if (!conv) throw mmErrors.invalidToken()
    if (conv.blocked) throw errors.blocked()

    const text = [content.title, content.text].filter(Boolean).join('\n')
    const stored = ctx.store.addMessage(conv, {
      createdMs: now,
      fromPage: true,
      text,
      ...(content.imageUrl && !text ? { attachment: { url: content.imageUrl } } : {}),
    })
    const trackingId = randomUUID()
    ctx.webhooks.pageSent(pageId, token.psid, stored, ctx.options.appId)
    ctx.webhooks.marketingEcho(pageId, token.psid, {
      recipient_id: token.psid,
      page_id: pageId,
      app_id: ctx.options.appId,
      timestamp: now,
      mid: stored.id,
      marketing_message_tracking_id: trackingId,
      messenger_subscription_token: token.token,
      message_id: campaign.id,
    })
    mk().sends.push({
      page_id: pageId,
      psid: token.psid,
      kind: 'marketing',
      text,
      ...(content.imageUrl ? { image_url: content.imageUrl } : {}),
      message_id: stored.id,
      campaign_id: campaign.id,
      marketing_message_tracking_id: trackingId,
      price_minor: price,
      currency: account.currency,
      token: token.token,
      at: new Date(now).toISOString(),
      atMs: now,
    })
    return { success: true, marketing_message_tracking_id: trackingId }
  })

  function tokenEntry(t: SubscriptionToken): GraphNode {
    const last = mk().lastSendWith(t.token)
    return {
      notification_messages_token: t.token,
      recipient_id: t.psid,
      notification_messages_reoptin: 'ENABLED',
      creation_timestamp: seconds(t.createdMs),
      token_expiry_timestamp: seconds(t.expiryMs),
      user_token_status: t.changedMs > t.createdMs ? 'REFRESHED' : 'NOT_REFRESHED',
      topic_title: t.title,
      notification_messages_timezone: t.timezone,
      next_eligible_time: seconds(last ? last.atMs + TOKEN_SEND_INTERVAL_MS : t.createdMs),
    }
  }

  app.get('/graph/:version/:id/notification_message_tokens', async (request) => {
    const { id } = request.params as { id: string }
    const q = request.query as Q
    const { pageId } = authenticatePage(ctx, request, id)
    const now = Date.now()
    let live = mk().tokens.filter((t) => t.pageId === pageId && mk().isLive(t, now))
    if (q.do_not_return_duplicates === 'true' || q.do_not_return_duplicates === '1') {
      const newest = new Map<string, SubscriptionToken>()
      for (const t of live) {
        const seen = newest.get(t.psid)
        if (!seen || t.createdMs >= seen.createdMs) newest.set(t.psid, t)
      }
      live = live.filter((t) => newest.get(t.psid) === t)
    }
    // Newest first; the key (creation time, then token) is strictly decreasing along the list.
    const key = (t: SubscriptionToken) => `${String(t.createdMs).padStart(15, '0')}|${t.token}`
    const ordered = [...live].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
    const page = paginate(request, ordered, key, {
      limit: limitOf(q.limit, TOKENS_LIMIT_DEFAULT, TOKENS_LIMIT_MAX),
      after: q.after,
      before: q.before,
    })
    return { ...page, data: page.data.map(tokenEntry) }
  })
}
