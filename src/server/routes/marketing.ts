/**
 * Marketing messages of a page (`/api/v2/pages/{pageId}/marketing…`): turning them on with an ad account
 * (after the network confirms the page token and its permissions, and that the ad account is active in a
 * region the network serves), turning them off, the subscriber list (synced from the page's token list;
 * opt-in webhooks keep it current) and the opt-in requests sent (for the weekly limit, and each message by
 * its id, so every device's chat shows it as a request). The page must be bound to the caller. Refusals are 422 with an `errors` map whose entries, and the `code` beside them, are marketing error
 * names the app shows the shared texts of (src/shared/marketing/error-texts.ts): page_token `page_permission`
 * (the network does not vouch for it as the caller's token of this page) | `permission_declined` (the marketing
 * permissions are not granted); ad_account_id `no_ad_account` | `ad_account_inactive` | `region_unavailable`;
 * user_token `permission_declined`. The English `message` says which check failed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  DEFAULT_OPTIN_TITLE,
  type MarketingAdAccount,
  type MarketingState,
  adAccountsBody,
  enableMarketingBody,
  optinMessagesQuery,
  optinRequestsBody,
  recordOptinRequestsBody,
  syncSubscribersBody,
} from '../../core/contracts/marketing.ts'
import { isGraphError } from '../../core/graph/errors.ts'
import type { TokenBox } from '../bulk/token-box.ts'
import type { ApiContext } from '../context.ts'
import type { Queryable } from '../db/store.ts'
import {
  AD_ACCOUNT_ACTIVE,
  type AdAccount,
  MARKETING_SCOPES,
  type MarketingGraphPort,
  type SubscriptionTokenEntry,
  marketingAvailableIn,
} from '../graph/marketing-port.ts'
import { type AuthUser, currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { HttpError, notFound, parse } from '../http/errors.ts'
import {
  activeSubscriberPsids,
  applyTokenSync,
  checkOptInRequests,
  databaseNow,
  marketingPage,
  recordSentOptInRequests,
  subscriberCounts,
  turnOffMarketing,
  turnOnMarketing,
} from '../repo/marketing.ts'
import { listOptInMessages } from '../repo/optin-messages.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { NETWORK_UNREACHABLE, isUnreachable, requireBoundPage } from './page-access.ts'

export interface MarketingRouteDeps {
  graph: MarketingGraphPort
  box: TokenBox
  now?: () => number
}

export type MarketingRefusal =
  'page_permission' | 'permission_declined' | 'no_ad_account' | 'ad_account_inactive' | 'region_unavailable'

/** Pages of the token list read in one sync at most (100 tokens each). */
const SYNC_PAGES_MAX = 10_000
const PAGE_ID = /^\d{1,64}$/

export function refusal(field: string, code: MarketingRefusal, message: string): HttpError {
  return new HttpError(422, message, { [field]: [code] }, code)
}

function unreachable(err: unknown): boolean {
  if (isUnreachable(err)) return true
  return isGraphError(err) && (err.kind === 'network' || err.kind === 'transient' || err.kind === 'throttle')
}

export async function marketingState(db: Queryable, pageId: string, now: Date): Promise<MarketingState> {
  const row = await marketingPage(db, pageId)
  return {
    enabled: row?.enabled ?? false,
    ad_account: row ? { id: row.ad_account_id, name: row.ad_account_name, currency: row.currency } : null,
    country: row?.country ?? null,
    available: row ? marketingAvailableIn(row.country) : null,
    subscribers: await subscriberCounts(db, pageId, now),
    tokens_synced_at: row?.tokens_synced_at ? new Date(row.tokens_synced_at).toISOString() : null,
    optin_title_default: DEFAULT_OPTIN_TITLE,
  }
}

function toAdAccount(a: AdAccount): MarketingAdAccount {
  const country = a.business_country_code ? a.business_country_code.toUpperCase() : null
  return {
    id: a.id,
    name: a.name,
    currency: a.currency,
    country,
    active: a.account_status === AD_ACCOUNT_ACTIVE,
    available: marketingAvailableIn(country),
  }
}

export function marketingRoutes(app: FastifyInstance, ctx: ApiContext, deps: MarketingRouteDeps): void {
  const auth = { preHandler: ctx.authenticate }
  /** The routes that call the network or store a list: limited per user. */
  const limited = userLimited(ctx)
  const now = () => new Date((deps.now ?? Date.now)())

  /** The page of the path, bound to the caller: 404 for an id that cannot be a page, 403 when not bound. */
  async function boundPage(request: FastifyRequest): Promise<{ pageId: string; user: AuthUser }> {
    const { pageId } = request.params as { pageId: string }
    if (!PAGE_ID.test(pageId)) throw notFound('Page not found.')
    const user = currentUser(request)
    await requireBoundPage(ctx.store, user.id, pageId)
    return { pageId, user }
  }

  /**
   * Throws 422 on `page_token` unless the network vouches for it as the caller's token of this page, issued
   * to this app (and, with `scopes`, granting the marketing permissions); 502 when it cannot be asked.
   */
  async function checkPageToken(user: AuthUser, pageId: string, token: string, scopes: boolean) {
    let info
    try {
      info = await ctx.graph.debugToken(token)
    } catch (err) {
      if (unreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
      throw refusal('page_token', 'page_permission', 'The social network refused this page token.')
    }
    if (!info.is_valid) {
      // The owner's own page token refused: the binding is checked (and revoked if the role is gone).
      await ctx.recheckBinding(user.id, pageId, token)
      throw refusal('page_token', 'page_permission', 'The social network refused this page token.')
    }
    if (info.app_id !== ctx.config.FB_APP_ID)
      throw refusal('page_token', 'page_permission', 'This page token was issued to another app.')
    if (info.type !== 'PAGE') throw refusal('page_token', 'page_permission', 'This is not a page token.')
    if (info.profile_id !== pageId)
      throw refusal('page_token', 'page_permission', 'This page token is for another page.')
    if (info.user_id !== user.facebook_id)
      throw refusal('page_token', 'page_permission', 'This page token was issued to another user.')
    if (scopes && !MARKETING_SCOPES.every((s) => info.scopes?.includes(s)))
      throw refusal(
        'page_token',
        'permission_declined',
        `Marketing messages need the permissions ${MARKETING_SCOPES.join(' and ')}.`,
      )
  }

  /**
   * Reads every page of the token list, then applies it in one transaction. Only a complete read (the last
   * page reached) drops the active subscribers the list no longer contains; a read cut short adds and updates
   * but drops nobody, and a failed read changes nothing. Tells the page's owners the counts.
   */
  async function syncTokens(pageId: string, pageToken: string): Promise<{ added: number; removed: number }> {
    const startedAt = now()
    const dbStartedAt = await databaseNow(ctx.store)
    let after: string | undefined
    let last: string | null = null
    let complete = false
    const entries: SubscriptionTokenEntry[] = []
    const seen = new Set<string>()
    for (let i = 0; i < SYNC_PAGES_MAX; i++) {
      const page = await deps.graph.subscriptionTokens(pageId, pageToken, { after, limit: 100 })
      entries.push(...page.data)
      const next = page.paging?.cursors?.after
      if (next) last = next
      if (!page.paging?.next || !next || page.data.length === 0) {
        complete = true
        break
      }
      // The same cursor again: the list loops, so its end is never reached.
      if (seen.has(next)) break
      seen.add(next)
      after = next
    }
    return applyTokenSync(
      ctx.store,
      deps.box,
      pageId,
      { entries, complete, cursor: last, startedAt, dbStartedAt },
      now(),
    )
  }

  app.get('/pages/:pageId/marketing', auth, async (request) => {
    const { pageId } = await boundPage(request)
    return marketingState(ctx.store, pageId, now())
  })

  app.post('/pages/:pageId/marketing/ad-accounts', limited, async (request) => {
    await boundPage(request)
    const body = parse(adAccountsBody, request.body)
    try {
      return { data: (await deps.graph.adAccounts(body.user_token)).map(toAdAccount) }
    } catch (err) {
      if (unreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
      if (isGraphError(err) && err.kind === 'auth')
        throw refusal('user_token', 'permission_declined', 'The social network refused this login.')
      throw refusal(
        'user_token',
        'permission_declined',
        'The social network did not let Pagecast read your ad accounts.',
      )
    }
  })

  app.put('/pages/:pageId/marketing', limited, async (request) => {
    const { pageId, user } = await boundPage(request)
    const body = parse(enableMarketingBody, request.body)
    await checkPageToken(user, pageId, body.page_token, true)
    let account: AdAccount
    try {
      account = await deps.graph.adAccount(body.ad_account_id, body.page_token)
    } catch (err) {
      if (unreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
      if (isPageTokenRefusal(err)) await ctx.recheckBinding(user.id, pageId, body.page_token)
      throw refusal('ad_account_id', 'no_ad_account', 'This ad account cannot be used with this page.')
    }
    // An answer without the account's currency cannot bill anything: treated as no usable account.
    if (!account || typeof account.id !== 'string' || !account.currency)
      throw refusal('ad_account_id', 'no_ad_account', 'This ad account cannot be used with this page.')
    const shown = toAdAccount(account)
    if (!shown.active) throw refusal('ad_account_id', 'ad_account_inactive', 'This ad account is not active.')
    if (!shown.available)
      throw refusal(
        'ad_account_id',
        'region_unavailable',
        "Marketing messages are not offered in this ad account's business country.",
      )
    await turnOnMarketing(
      ctx.store,
      {
        pageId,
        userId: user.id,
        adAccountId: account.id,
        adAccountName: account.name,
        currency: account.currency,
        country: shown.country,
      },
      now(),
    )
    try {
      await syncTokens(pageId, body.page_token)
    } catch (err) {
      // Turned on all the same: the next sync (or the opt-in webhooks) fills the list.
      request.log.warn({ err, pageId }, 'marketing: the token list could not be read on turning on')
      if (isPageTokenRefusal(err)) await ctx.recheckBinding(user.id, pageId, body.page_token)
    }
    return marketingState(ctx.store, pageId, now())
  })

  app.delete('/pages/:pageId/marketing', auth, async (request) => {
    const { pageId } = await boundPage(request)
    await turnOffMarketing(ctx.store, pageId, now())
    return marketingState(ctx.store, pageId, now())
  })

  app.post('/pages/:pageId/marketing/sync', limited, async (request) => {
    const { pageId, user } = await boundPage(request)
    const body = parse(syncSubscribersBody, request.body)
    await checkPageToken(user, pageId, body.page_token, false)
    let counts: { added: number; removed: number }
    try {
      counts = await syncTokens(pageId, body.page_token)
    } catch (err) {
      if (unreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
      if (isPageTokenRefusal(err)) await ctx.recheckBinding(user.id, pageId, body.page_token)
      if (isGraphError(err) && err.kind === 'auth')
        throw refusal('page_token', 'page_permission', 'The social network refused this page token.')
      throw refusal(
        'page_token',
        'permission_declined',
        "The social network did not let Pagecast read this page's subscribers.",
      )
    }
    return { ...(await subscriberCounts(ctx.store, pageId, now())), ...counts }
  })

  app.get('/pages/:pageId/marketing/subscribers', auth, async (request) => {
    const { pageId } = await boundPage(request)
    return { psids: await activeSubscriberPsids(ctx.store, pageId, now()) }
  })

  app.post('/pages/:pageId/marketing/optin-requests/check', auth, async (request) => {
    const { pageId } = await boundPage(request)
    const body = parse(optinRequestsBody, request.body)
    return checkOptInRequests(ctx.store, pageId, body.psids, body.title, now())
  })

  app.post('/pages/:pageId/marketing/optin-requests', limited, async (request) => {
    const { pageId } = await boundPage(request)
    const body = parse(recordOptinRequestsBody, request.body)
    const messages = body.messages ?? []
    const psids = [...(body.psids ?? []), ...messages.map((m) => m.psid)]
    const at = now()
    await recordSentOptInRequests(ctx.store, pageId, psids, messages, body.title, at)
    return { recorded: new Set(psids).size }
  })

  app.get('/pages/:pageId/marketing/optin-requests', auth, async (request) => {
    const { pageId } = await boundPage(request)
    const { psid } = parse(optinMessagesQuery, request.query)
    return { data: await listOptInMessages(ctx.store, pageId, psid) }
  })
}
