import { expect, it } from 'vitest'
import { marketingKeys, marketingQueryKey } from './marketing.ts'

it("keeps every marketing read of a page under the page's key, so invalidating it reaches them all", () => {
  const page = marketingQueryKey('p1')
  const keys = [
    marketingKeys.state('p1'),
    marketingKeys.subscribers('p1'),
    marketingKeys.adAccounts('p1'),
    marketingKeys.estimate('p1', 12),
    marketingKeys.optinCheck('p1', 'News', ['a', 'b', 'c']),
  ]
  for (const key of keys) expect(key.slice(0, page.length)).toEqual(page)
  expect(new Set(keys.map((k) => JSON.stringify(k))).size).toBe(keys.length)
  expect(marketingKeys.optinCheck('p1', 'News', ['a', 'b', 'c'])).toEqual([
    'marketing',
    'p1',
    'optin-check',
    'News',
    3,
    'a',
    'c',
  ])
  expect(marketingKeys.estimate('p2', 12)).not.toEqual(marketingKeys.estimate('p1', 12))
})
