/**
 * Who may act on a page. A page is registered (and its trial bound) only after the network confirms, through
 * `debug_token` asked with the app token, that the page token the app sends is a valid token of this app,
 * for that page, issued to the caller. Every later call naming a page needs that binding (`user_pages`) in
 * force. The binding is checked again the same way (`recheckBinding`) when a page token of the user's fails on
 * the server, on a schedule, and it ends when the network no longer vouches for it (repo/page-bindings.ts).
 */
import type { TokenDebugInfo } from '../../core/graph/types.ts'
import type { TokenBox } from '../bulk/token-box.ts'
import type { ApiContext } from '../context.ts'
import type { Queryable, Store } from '../db/store.ts'
import { GraphCallError, type GraphApi } from '../graph/graph-api.ts'
import type { AuthUser } from '../http/auth.ts'
import { HttpError, invalid } from '../http/errors.ts'
import {
  type BindingVerdict,
  bindingForCheck,
  bindingState,
  forgetBindingToken,
  markBindingChecked,
  revokeBinding,
  takeDueBindings,
} from '../repo/page-bindings.ts'

export const NETWORK_UNREACHABLE = 'The social network could not be reached. Please try again.'
export const PAGE_NOT_BOUND = 'You do not manage this page here. Open it from your pages list first.'
export const PAGE_ACCESS_REVOKED_TEXT =
  'The social network says you no longer manage this page. Open it again from your pages list once your role on it is back.'

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
  const state = await bindingState(db, userId, pageId)
  if (state === 'none') throw new HttpError(403, PAGE_NOT_BOUND, undefined, 'page_not_bound')
  if (state === 'revoked')
    throw new HttpError(403, PAGE_ACCESS_REVOKED_TEXT, undefined, 'page_access_revoked')
}

/**
 * The `debug_token` error subcodes of a session that ended without the role being in question: expired (463),
 * password changed (460), logged out (467), and the session invalidated on other grounds (461, 464, 465, 466, 468).
 */
const SESSION_ENDED_SUBCODES: ReadonlySet<number> = new Set([460, 461, 463, 464, 465, 466, 467, 468])

export function judgeToken(
  info: TokenDebugInfo,
  expected: { appId: string; pageId: string; facebookId: string },
): BindingVerdict {
  if (!info.is_valid)
    return info.error?.subcode !== undefined && SESSION_ENDED_SUBCODES.has(info.error.subcode)
      ? 'token_dead'
      : 'revoked'
  if (
    info.app_id !== expected.appId ||
    info.type !== 'PAGE' ||
    info.profile_id !== expected.pageId ||
    info.user_id !== expected.facebookId
  )
    return 'unknown'
  return 'holds'
}

export interface BindingCheckDeps {
  store: Store
  graph: Pick<GraphApi, 'debugToken'>
  box: TokenBox
  appId: string
  /** Asks the server sender to run a job now (it stops the jobs of a revoked binding with a reason). */
  kick?: ((messageId: string) => Promise<void>) | undefined
  log?: { warn(obj: object, msg: string): void } | undefined
}

/**
 * Checks the user's binding to the page with the network: `debug_token` of `token` (a page token of the user's
 * that just failed) or else of the token the binding was made with. A binding the network no longer vouches for
 * is revoked at once (repo/page-bindings.ts); a check that holds records its time.
 */
export async function recheckBinding(
  deps: BindingCheckDeps,
  userId: string,
  pageId: string,
  token?: string,
): Promise<BindingVerdict> {
  const row = await bindingForCheck(deps.store, userId, pageId)
  if (!row) return 'unknown'
  if (row.revoked) return 'revoked'
  let stored: string | undefined
  try {
    stored = row.sealed ? deps.box.open(row.sealed) : undefined
  } catch {
    stored = undefined
  }
  const checked = token ?? stored
  if (!checked) return 'unknown'
  let info: TokenDebugInfo
  try {
    info = await deps.graph.debugToken(checked)
  } catch (err) {
    deps.log?.warn({ err: String(err), pageId }, 'a page binding could not be checked with the network')
    return 'unknown'
  }
  const verdict = judgeToken(info, { appId: deps.appId, pageId, facebookId: row.facebook_id })
  // Another token failing (an older one a job was handed) is not the binding's: the binding's own one decides.
  if (verdict !== 'holds' && token && stored && stored !== token) return recheckBinding(deps, userId, pageId)
  if (verdict === 'holds') {
    await markBindingChecked(deps.store, userId, pageId)
  } else if (verdict === 'token_dead') {
    // The stored token can vouch for nothing more; the next entry to the page stores a fresh one.
    await forgetBindingToken(deps.store, userId, pageId)
  } else if (verdict === 'revoked') {
    const jobs = await revokeBinding(deps.store, userId, pageId, 'role_lost')
    for (const id of jobs ?? []) await deps.kick?.(id).catch(() => undefined)
  }
  return verdict
}

/**
 * One round of the scheduled check: up to `limit` bindings whose last check is older than `minutes` are checked
 * with the network, one after another. Answers how many were revoked.
 */
export async function recheckDueBindings(
  deps: BindingCheckDeps,
  minutes: number,
  limit: number,
): Promise<number> {
  let revoked = 0
  for (const { userId, pageId } of await takeDueBindings(deps.store, minutes, limit)) {
    if ((await recheckBinding(deps, userId, pageId)) === 'revoked') revoked++
  }
  return revoked
}
