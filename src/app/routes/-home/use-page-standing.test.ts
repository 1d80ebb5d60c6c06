import { afterEach, expect, it, vi } from 'vitest'
import { onlineManager, QueryClient } from '@tanstack/react-query'
import type { Account } from '../../../core/graph/types.ts'
import { pageStandingKey } from '../../../shared/api/index.ts'
import { sessionStore } from '../../../shared/session/store.ts'
import { prefetchPageStanding } from './use-page-standing.ts'

const shop = { id: '123', name: 'Shop', access_token: 'page-token' } as Account

afterEach(() => {
  onlineManager.setOnline(true)
  vi.restoreAllMocks()
  sessionStore.reset({ status: 'loading', accounts: [] })
})

it("waits for the session being checked, then for the pages' standing, which the cards read", async () => {
  const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ data: { '123': 'banned' } }))
  const client = new QueryClient()
  const loading = prefetchPageStanding(client)
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(fetch).not.toHaveBeenCalled()
  sessionStore.reset({ status: 'logged_in', accounts: [shop] })
  await loading
  expect(fetch).toHaveBeenCalledOnce()
  expect(client.getQueryData(pageStandingKey(['123']))).toEqual({ '123': 'banned' })
})

it('offline, the question waits for the connection', async () => {
  sessionStore.reset({ status: 'logged_in', accounts: [shop] })
  onlineManager.setOnline(false)
  const fetch = vi.spyOn(globalThis, 'fetch')
  await prefetchPageStanding(new QueryClient())
  expect(fetch).not.toHaveBeenCalled()
})

it('asks it for a saved session drawn while its sign-in is checked, not for an offline start', async () => {
  const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ data: { '123': 'banned' } }))
  sessionStore.reset({ status: 'logged_in', accounts: [shop], offline: true })
  await prefetchPageStanding(new QueryClient())
  expect(fetch).not.toHaveBeenCalled()
  sessionStore.reset({ status: 'logged_in', accounts: [shop], offline: true, restoring: true })
  await prefetchPageStanding(new QueryClient())
  expect(fetch).toHaveBeenCalledOnce()
})
