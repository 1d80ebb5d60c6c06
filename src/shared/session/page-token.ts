/**
 * Fresh page tokens from the accounts list, for the bulk sender and the inbox. One refresh at a time per page
 * (askers share it), and after a refresh that gave the page no token, none again for that page until its
 * backoff (5 s doubling to 5 min, jittered) has elapsed: a page that lost its token cannot flood the network.
 */
import { TOKEN_RETRY_BASE_MS, TOKEN_RETRY_MAX_MS } from '../../core/constants/limits.ts'
import { retryGate } from '../../core/network/backoff.ts'
import { extendPageToken } from '../api/pages.ts'
import { refreshAccounts } from './actions.ts'

const gate = retryGate<string | undefined>({
  base: TOKEN_RETRY_BASE_MS,
  max: TOKEN_RETRY_MAX_MS,
  failed: (token) => !token,
})

/** The page's token from a fresh accounts list, or undefined (no token listed, or the list unreadable). */
export function freshPageToken(pageId: string): Promise<string | undefined> {
  return gate.run(pageId, async () => {
    const accounts = await refreshAccounts().catch(() => undefined)
    return accounts?.find((a) => a.id === pageId)?.access_token
  })
}

/** Who asks for a fresh page token. */
export type PageTokenUse = 'inbox' | 'bulk'

/**
 * Whether a refreshed token is exchanged for a long-lived one, decided here for every asker: the inbox keeps
 * its token for the whole visit, so it extends it (a token that cannot be extended still works for now); the
 * bulk sender asks again at each expiry and sends with the listed token, without an API call per refresh.
 */
const EXTENDS: Record<PageTokenUse, boolean> = { inbox: true, bulk: false }

/** The page refresh rule of both the inbox and the bulk sender: a fresh token (extended or not), or undefined. */
export async function refreshedPageToken(pageId: string, use: PageTokenUse): Promise<string | undefined> {
  const listed = await freshPageToken(pageId)
  if (!listed || !EXTENDS[use]) return listed
  return extendPageToken(listed, pageId).catch(() => listed)
}

/** The owner acted (resumed a job): the next refresh of any page runs at once. */
export function retryPageTokensNow(): void {
  gate.reset()
}
