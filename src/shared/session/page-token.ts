/**
 * Fresh page tokens from the accounts list, for the bulk sender and the inbox. One refresh at a time per page
 * (askers share it), and after a refresh that gave the page no token, none again for that page until its
 * backoff (5 s doubling to 5 min, jittered) has elapsed: a page that lost its token cannot flood the network.
 */
import { TOKEN_RETRY_BASE_MS, TOKEN_RETRY_MAX_MS } from '../constants/limits.ts'
import { retryGate } from '../network/backoff.ts'
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

/** The owner acted (resumed a job): the next refresh of any page runs at once. */
export function retryPageTokensNow(): void {
  gate.reset()
}
