import { QueryClient } from '@tanstack/react-query'
import { expect, it } from 'vitest'
import { userQueryKey, userScopedKey } from './user.ts'

it("keeps the user's own reads under the user's key: invalidating the user reaches them, not other reads", async () => {
  const client = new QueryClient()
  client.setQueryData(userScopedKey('sessions'), [])
  client.setQueryData(userScopedKey('saved-replies'), [])
  client.setQueryData(['inbox', 'p1', 'conversations'], [])
  expect(userScopedKey('sessions')).toEqual(['user', 'sessions'])
  await client.invalidateQueries({ queryKey: userQueryKey })
  const stale = client
    .getQueryCache()
    .getAll()
    .filter((q) => q.isStale() && q.state.isInvalidated)
    .map((q) => q.queryKey)
  expect(stale).toEqual([
    ['user', 'sessions'],
    ['user', 'saved-replies'],
  ])
})
