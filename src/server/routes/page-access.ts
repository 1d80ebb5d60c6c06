/**
 * Who may act on a page. A page is registered (and its trial bound) only after the network confirms, through
 * `debug_token` asked with the app token, that the page token the app sends is a valid token of this app,
 * for that page, issued to the caller. Every later call naming a page needs that binding (`user_pages`).
 */
import type { ApiContext } from '../context.ts'
import type { Queryable } from '../db/store.ts'
import { GraphCallError } from '../graph/graph-api.ts'
import type { AuthUser } from '../http/auth.ts'
import { HttpError, invalid } from '../http/errors.ts'

export const NETWORK_UNREACHABLE = 'The social network could not be reached. Please try again.'
export const PAGE_NOT_BOUND = 'You do not manage this page here. Open it from your pages list first.'

export function isUnreachable(err: unknown): boolean {
  return err instanceof GraphCallError && (err.status === 0 || err.status >= 500)
}

/** Throws 422 (`errors.access_token`) unless the network vouches for `token` as the caller's page token. */
export async function verifyPageToken(
  ctx: ApiContext,
  user: AuthUser,
  pageId: string,
  token: string,
): Promise<void> {
  let info
  try {
    info = await ctx.graph.debugToken(token)
  } catch (err) {
    if (isUnreachable(err)) throw new HttpError(502, NETWORK_UNREACHABLE)
    throw refused(err instanceof Error ? err.message : undefined)
  }
  if (!info.is_valid) throw refused(info.error?.message)
  if (info.app_id !== ctx.config.FB_APP_ID)
    throw invalid('access_token', 'This page token was issued to another app.')
  if (info.type !== 'PAGE') throw invalid('access_token', 'This is not a page token.')
  if (info.profile_id !== pageId) throw invalid('access_token', 'This page token is for another page.')
  if (info.user_id !== user.facebook_id)
    throw invalid('access_token', 'This page token was issued to another user.')
}

function refused(reason: string | undefined): HttpError {
  return invalid('access_token', `The social network refused this page token${reason ? ` (${reason})` : ''}.`)
}

/**
 * 403 unless the caller registered the page. Not 404: page ids are public on the network, so hiding whether
 * the page exists protects nothing, and 403 tells the app to enter the page (which registers it) first.
 */
export async function requireBoundPage(db: Queryable, userId: string, pageId: string): Promise<void> {
  const rows = await db.query('SELECT 1 FROM user_pages WHERE user_id = $1 AND page_id = $2', [
    userId,
    pageId,
  ])
  if (rows.length === 0) throw new HttpError(403, PAGE_NOT_BOUND, undefined, 'page_not_bound')
}
