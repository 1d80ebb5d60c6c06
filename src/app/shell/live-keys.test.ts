import { describe, expect, it } from 'vitest'
import { historyKey } from '../../features/chat/api/use-history.ts'
import { conversationsQueryKey } from '../../features/inbox/api/use-conversation-list.ts'
import { marketingKeyRoot, marketingQueryKey } from '../../shared/api/marketing.ts'
import { templatesKey } from '../../shared/utility/api.ts'
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
    // A template's review reads the page's templates again.
    expect(LIVE_KEYS.templates('p1')).toEqual([...templatesKey('p1')])
  })
})
