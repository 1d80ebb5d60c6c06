/**
 * Page entry (docs/product-rules.md#page-entry): the page must be among the user's connected accounts, is
 * registered with the product API (which refuses banned pages and used trials with a 406), and its token is
 * extended.
 */
import type { PageBody, SubscriptionState } from '../../../core/contracts/api.ts'
import type { PageWebhooks } from '../../../core/contracts/events.ts'
import type { Account } from '../../../core/graph/types.ts'

export type RefusalReason = 'trial_used' | 'banned' | 'other'

export type PageEntry =
  | { kind: 'absent' }
  | { kind: 'refused'; reason: RefusalReason }
  /** No connection: the cached inbox is shown read-only until it returns. */
  | { kind: 'offline' }
  | { kind: 'failed' }
  | {
      kind: 'ready'
      account: Account
      token: string
      subscription?: SubscriptionState
      /** Live updates of the page (webhooks): `ok: false` when the network refused them. */
      webhooks?: PageWebhooks
    }

export interface PageEntryDeps {
  accounts: readonly Account[]
  accessType: SubscriptionState['access_type'] | undefined
  registerPage: (body: PageBody) => Promise<{ subscription?: SubscriptionState; webhooks?: PageWebhooks }>
  extendPageToken: (token: string, pageId: string) => Promise<string>
}

function statusOf(err: unknown): number | undefined {
  return err && typeof err === 'object' && 'status' in err && typeof err.status === 'number'
    ? err.status
    : undefined
}

function bodyField(err: unknown, field: string): string | undefined {
  const body = err && typeof err === 'object' && 'body' in err ? err.body : undefined
  if (!body || typeof body !== 'object' || !(field in body)) return undefined
  const value = (body as Record<string, unknown>)[field]
  return typeof value === 'string' ? value : undefined
}

/**
 * Which refusal a 406 is: by the machine-readable `code` when the server sends one; otherwise a trial user's
 * refusal is the used trial (a banned page is refused to everybody, but a trial user cannot tell the two apart
 * without the code, and the trial message is the one that offers a way forward).
 */
export function refusalReason(
  err: unknown,
  accessType: SubscriptionState['access_type'] | undefined,
): RefusalReason {
  const code = (bodyField(err, 'code') ?? bodyField(err, 'reason') ?? '').toLowerCase()
  if (code.includes('trial')) return 'trial_used'
  if (code.includes('ban')) return 'banned'
  return accessType === 'trial' ? 'trial_used' : 'banned'
}

/** The page token goes with it (held in memory only): the server checks with the network who manages the page. */
export function pageBodyOf(account: Account & { access_token: string }): PageBody {
  return {
    id: account.id,
    name: account.name,
    category: account.category ?? null,
    picture: account.picture?.data.url ?? null,
    fan_count: account.fan_count ?? null,
    access_token: account.access_token,
  }
}

export async function enterPage(pageId: string, deps: PageEntryDeps): Promise<PageEntry> {
  const account = deps.accounts.find((a) => a.id === pageId)
  const pageToken = account?.access_token
  if (!account || !pageToken) return { kind: 'absent' }
  let subscription: SubscriptionState | undefined
  let webhooks: PageWebhooks | undefined
  try {
    ;({ subscription, webhooks } = await deps.registerPage(
      pageBodyOf({ ...account, access_token: pageToken }),
    ))
  } catch (err) {
    const status = statusOf(err)
    if (status === 406) return { kind: 'refused', reason: refusalReason(err, deps.accessType) }
    if (status === 0 || err instanceof TypeError) return { kind: 'offline' }
    return { kind: 'failed' }
  }
  // A token that cannot be extended still works for now; the 190 path refreshes it when it expires.
  const token = await deps.extendPageToken(pageToken, pageId).catch(() => pageToken)
  return { kind: 'ready', account, token, subscription, ...(webhooks ? { webhooks } : {}) }
}
