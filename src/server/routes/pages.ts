/**
 * Page registration (docs/product-rules.md#trial-and-banned-pages) and the server-side token exchange. A
 * trial binds to every page it is used with; a page bound to another user's trial is refused to trial users.
 * Nothing is written before the network confirms that the caller manages the page (page-access.ts).
 */
import type { FastifyInstance } from 'fastify'
import {
  extendTokenBody,
  pageBody,
  pageStandingQuery,
  type PageStanding,
} from '../../shared/contracts/api.ts'
import type { PageWebhooks } from '../../shared/contracts/events.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { HttpError, invalid, notAcceptable, parse } from '../http/errors.ts'
import { publishToPage } from '../repo/owner-events.ts'
import { loadSubscription, toState } from '../repo/subscriptions.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { bindPage } from '../repo/page-bindings.ts'
import { NETWORK_UNREACHABLE, isUnreachable, requireBoundPage, verifyPageToken } from './page-access.ts'

export const TRIAL_USED =
  'This page has already been used for a trial, in order to use it you have to subscribe.'
export const PAGE_BANNED = 'This page has been banned. Please contact support.'

export function pageRoutes(app: FastifyInstance, ctx: ApiContext): void {
  // Both call the network with the app's credentials: limited per user.
  const limited = userLimited(ctx)

  app.post('/page', limited, async (request) => {
    const page = parse(pageBody, request.body)
    const user = currentUser(request)
    const userId = user.id
    await verifyPageToken(ctx, user, page.id, page.access_token)
    const outcome = await ctx.store.transaction(async (tx) => {
      const stored = (
        await tx.query<{ banned: boolean }>(
          `INSERT INTO pages (id, name, category, picture, fan_count) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category,
             picture = EXCLUDED.picture, fan_count = EXCLUDED.fan_count, updated_at = now()
           RETURNING banned`,
          [page.id, page.name, page.category ?? null, page.picture ?? null, page.fan_count ?? null],
        )
      )[0]!
      if (stored.banned) return 'banned' as const
      const sub = await loadSubscription(tx, userId)
      if (sub.access_type === 'trial') {
        // One statement decides, so two trial users opening the page at once cannot both take it.
        const bound = await tx.query(
          `UPDATE pages SET trial_used = true, trial_user_id = $2
           WHERE id = $1 AND (NOT trial_used OR trial_user_id = $2) RETURNING id`,
          [page.id, userId],
        )
        if (bound.length === 0) return 'trial_used' as const
        await tx.query(
          'UPDATE subscriptions SET trial_page_id = COALESCE(trial_page_id, $2) WHERE user_id = $1',
          [userId, page.id],
        )
      }
      // Bound again with this token even after a revocation: the network has just vouched for the role.
      await bindPage(tx, userId, page.id, ctx.box.seal(page.access_token))
      return toState(await loadSubscription(tx, userId))
    })
    if (outcome === 'banned') throw notAcceptable(PAGE_BANNED, 'page_banned')
    if (outcome === 'trial_used') throw notAcceptable(TRIAL_USED, 'trial_used')
    const webhooks = await subscribeWebhooks(ctx, page.id, page.access_token)
    // The network refusing the page token it vouched for a moment ago: the binding is checked again.
    if (webhooks.authFailed) await ctx.recheckBinding(userId, page.id, page.access_token)
    return {
      data: {
        subscription: outcome,
        webhooks: { ok: webhooks.ok, ...(webhooks.error ? { error: webhooks.error } : {}) },
      },
    }
  })

  // The pages of the caller's home that cannot be used, so their cards say so before they are opened: banned
  // pages (a page's ban is no secret: opening it says the same to anyone who manages it), and the pages whose
  // binding to the caller was revoked. Pages in good standing are left out.
  app.get('/page/standing', { preHandler: ctx.authenticate }, async (request) => {
    const { ids } = parse(pageStandingQuery, request.query)
    const userId = currentUser(request).id
    const rows = await ctx.store.query<{ id: string; standing: PageStanding }>(
      `SELECT id, 'banned' AS standing FROM pages WHERE id = ANY($1::text[]) AND banned
       UNION ALL
       SELECT page_id AS id, 'revoked' AS standing FROM user_pages
        WHERE user_id = $2 AND page_id = ANY($1::text[]) AND revoked_at IS NOT NULL`,
      [[...new Set(ids.split(','))], userId],
    )
    const data: Record<string, PageStanding> = {}
    // A ban outweighs a revocation: opening the page again would not help.
    for (const row of rows) if (data[row.id] !== 'banned') data[row.id] = row.standing
    return { data }
  })

  app.post('/page/extend-token', limited, async (request) => {
    const body = parse(extendTokenBody, request.body)
    if (body.page_id) await requireBoundPage(ctx.store, currentUser(request).id, body.page_id)
    try {
      return { accessToken: await ctx.graph.exchangeToken(body.access_token) }
    } catch (err) {
      if (isUnreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
      // A page token the network will not exchange (it only exchanges user tokens) is still good to use
      // when it is valid for the page it claims: it is then answered unchanged.
      if (body.page_id && (await ownerOf(ctx, body.access_token)) === body.page_id)
        return { accessToken: body.access_token }
      // Not a 401: the page token is refused, the user's own session is still good.
      throw invalid(
        'access_token',
        `The social network refused this page token${err instanceof Error ? ` (${err.message})` : ''}.`,
      )
    }
  })
}

/** Asked again after a day even when it worked, in case the subscription was removed at the network. */
const RESUBSCRIBE_HOURS = 24

/**
 * Subscribes the page to this app's webhooks (live messages, echoes, receipts, opt-ins) when it is not known
 * to be subscribed; the result is kept on the page, told to its owners' apps (`page_subscription`) and
 * answered. A failure never refuses the connection: the inbox works without live updates.
 */
async function subscribeWebhooks(
  ctx: ApiContext,
  pageId: string,
  pageToken: string,
): Promise<PageWebhooks & { authFailed?: boolean }> {
  const [known] = await ctx.store.query<{ ok: boolean | null; error: string | null; fresh: boolean }>(
    `SELECT webhooks_ok AS ok, webhooks_error AS error,
       COALESCE(webhooks_checked_at > now() - make_interval(hours => $2), false) AS fresh
     FROM pages WHERE id = $1`,
    [pageId, RESUBSCRIBE_HOURS],
  )
  if (known?.ok === true && known.fresh) return { ok: true }
  let result: PageWebhooks
  let authFailed = false
  try {
    await ctx.graph.subscribePage(pageId, pageToken)
    result = { ok: true }
  } catch (err) {
    result = { ok: false, error: err instanceof Error ? err.message : 'The subscription failed.' }
    authFailed = isPageTokenRefusal(err)
  }
  await ctx.store.transaction(async (tx) => {
    await tx.query(
      'UPDATE pages SET webhooks_ok = $2, webhooks_error = $3, webhooks_checked_at = now() WHERE id = $1',
      [pageId, result.ok, result.error ?? null],
    )
    await publishToPage(tx, pageId, 'page_subscription', { pageId, ...result })
  })
  return { ...result, authFailed }
}

async function ownerOf(ctx: ApiContext, token: string): Promise<string | undefined> {
  try {
    return await ctx.graph.tokenOwner(token)
  } catch (err) {
    if (isUnreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
    return undefined
  }
}
