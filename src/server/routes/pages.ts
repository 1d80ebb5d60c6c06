/**
 * Page registration (docs/product-rules.md#trial-and-banned-pages) and the server-side token exchange. A
 * trial binds to every page it is used with; a page bound to another user's trial is refused to trial users.
 * Nothing is written before the network confirms that the caller manages the page (page-access.ts).
 */
import type { FastifyInstance } from 'fastify'
import { extendTokenBody, pageBody, pageStandingQuery, type PageStanding } from '../../core/contracts/api.ts'
import type { PageWebhooks } from '../../core/contracts/events.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { HttpError, invalid, notAcceptable, parse } from '../http/errors.ts'
import { toState } from '../repo/subscriptions.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { pageStandings, recordWebhookSubscription, registerPage, webhookSubscription } from '../repo/pages.ts'
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
    // Bound again with this token even after a revocation: the network has just vouched for the role.
    const registered = await registerPage(ctx.store, userId, page, ctx.box.seal(page.access_token))
    if (registered === 'banned') throw notAcceptable(PAGE_BANNED, 'page_banned')
    if (registered === 'trial_used') throw notAcceptable(TRIAL_USED, 'trial_used')
    const outcome = toState(registered)
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
    const rows = await pageStandings(ctx.store, userId, [...new Set(ids.split(','))])
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
  const known = await webhookSubscription(ctx.store, pageId, RESUBSCRIBE_HOURS)
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
  await recordWebhookSubscription(ctx.store, pageId, result)
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
