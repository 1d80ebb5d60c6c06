import { afterEach, expect, it, vi } from 'vitest'
import { ACCOUNTS_LIMIT } from '../../core/constants/limits.ts'
import { ACCOUNT_FIELDS, ME_FIELDS } from '../../core/graph/fields.ts'
import { sessionGraph } from './graph-port.ts'

afterEach(() => vi.unstubAllGlobals())

it("reads the profile, the grants and the pages through the Graph client, with its fields and the user's token", async () => {
  const urls: URL[] = []
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, location.origin)
    urls.push(url)
    const body = url.pathname.endsWith('/me')
      ? { id: 'u1', name: 'Ana' }
      : url.pathname.endsWith('/permissions')
        ? { data: [{ permission: 'pages_messaging', status: 'granted' }] }
        : { data: [{ id: 'p1', name: 'Shop', access_token: 'pt' }] }
    return new Response(JSON.stringify(body), { status: 200 })
  })
  const graph = sessionGraph({ graphUrl: '/sandbox/graph/', graphVersion: 'v25.0' })
  expect(await graph.me('ut')).toEqual({ id: 'u1', name: 'Ana' })
  expect(await graph.permissions('ut')).toEqual([{ permission: 'pages_messaging', status: 'granted' }])
  expect(await graph.accounts('ut')).toEqual([{ id: 'p1', name: 'Shop', access_token: 'pt' }])
  expect(urls.map((u) => u.pathname)).toEqual([
    '/sandbox/graph/v25.0/me',
    '/sandbox/graph/v25.0/me/permissions',
    '/sandbox/graph/v25.0/me/accounts',
  ])
  for (const u of urls) expect(u.searchParams.get('access_token')).toBe('ut')
  expect(urls[0]!.searchParams.get('fields')).toBe(ME_FIELDS)
  expect(urls[2]!.searchParams.get('fields')).toBe(ACCOUNT_FIELDS)
  expect(urls[2]!.searchParams.get('limit')).toBe(String(ACCOUNTS_LIMIT))
})

it("rejects with the Graph client's classified error when the token is refused", async () => {
  vi.stubGlobal('fetch', async () =>
    Response.json({ error: { message: 'expired', type: 'OAuthException', code: 190 } }, { status: 401 }),
  )
  const graph = sessionGraph({ graphUrl: '/sandbox/graph', graphVersion: 'v25.0' })
  await expect(graph.accounts('ut')).rejects.toMatchObject({ kind: 'auth' })
})
