import { describe, expect, it } from 'vitest'
import { historyKey } from '../../features/chat/api/use-history.ts'
import { conversationsQueryKey } from '../../features/inbox/api/use-conversation-list.ts'
import { marketingKeyRoot, marketingQueryKey } from '../../shared/api/marketing.ts'
import { SERVER_JOBS_KEY } from '../../shared/bulk/server-jobs.ts'
import { LIVE_KEYS } from './live-keys.ts'

describe("the live stream's query keys", () => {
  it("are the inbox's and the chat's own keys", () => {
    expect(LIVE_KEYS.conversations('p1')).toEqual([...conversationsQueryKey('p1')])
    const prefixes = LIVE_KEYS.all.map((k) => k[0])
    expect(prefixes).toContain(conversationsQueryKey('p1')[0])
    expect(prefixes).toContain(historyKey('p1', 'c1')[0])
    expect(LIVE_KEYS.marketing('p1')).toEqual([...marketingQueryKey('p1')])
    // A refetch reads every page's marketing state (subscriber counts) again.
    expect(prefixes).toContain(marketingKeyRoot[0])
    // The bulk cards' list of the server's jobs is patched by progress events and read again after a gap.
    expect(LIVE_KEYS.serverJobs).toEqual([...SERVER_JOBS_KEY])
    expect(LIVE_KEYS.all).toContainEqual([...SERVER_JOBS_KEY])
  })
})
