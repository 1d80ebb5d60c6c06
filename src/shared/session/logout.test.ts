/**
 * Logging out in a real browser: the server is told to end the session, and nothing of the user stays in
 * IndexedDB, the offline snapshot or the picture caches. Signing in as someone else wipes what another user
 * left behind before anything is shown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { apiToken, clearSessionToken } from '../api/session-cookie.ts'
import { PICTURE_CACHE } from '../../core/constants/caches.ts'
import { db } from '../../device/db/db.ts'
import { configureSession, loginWithSdk, logout } from './actions.ts'
import { loadSnapshot, saveSnapshot } from './snapshot.ts'
import { signedInCookie } from '../testing/cookie.ts'
import { testClientConfig, testSubscription } from '../../core/testing/session.ts'
import { sessionStore } from './store.ts'

const config = testClientConfig

const subscription = (facebookId: string) => testSubscription({ facebook_id: facebookId })

const SCOPES =
  'business_management,pages_messaging,pages_show_list,email,pages_manage_metadata,pages_read_engagement'

function configure(facebookId: string) {
  configureSession(config, {
    sdk: {
      login: async () => ({
        status: 'connected',
        authResponse: { accessToken: `user-${facebookId}`, userID: facebookId, grantedScopes: SCOPES },
      }),
      getLoginStatus: async () => ({ status: 'unknown', authResponse: null }),
      logout: async () => undefined,
    },
    graph: {
      me: async () => ({ id: facebookId, name: `User ${facebookId}` }),
      permissions: async () => [],
      accounts: async () => [],
    },
  })
}

function loginAnswer(facebookId: string): Response {
  return Response.json({
    data: {
      token: `token-of-${facebookId}-0123456789abcdef`,
      user: {
        id: '7',
        facebook_id: facebookId,
        name: 'x',
        email: null,
        subscription: subscription(facebookId),
      },
    },
  })
}

/** One row in every table a user's work reaches, plus the snapshot and a cached picture. */
async function leaveData(owner?: string) {
  await db.conversations.put({
    key: 'p1:c1',
    pageId: 'p1',
    id: 'c1',
    updatedAt: 1,
    customerId: 'u1',
    customerName: 'Customer',
    snippet: 'private',
    unreadCount: 0,
    canReply: true,
  })
  await db.messages.put({
    key: 'p1:m1',
    pageId: 'p1',
    conversationId: 'c1',
    id: 'm1',
    createdAt: 1,
    fromId: 'u1',
    fromName: 'Customer',
    toId: 'p1',
    text: 'private',
    imageUrls: [],
  })
  await db.replyOutbox.put({
    id: 'r1',
    pageId: 'p1',
    conversationId: 'c1',
    recipientId: 'u1',
    text: 'a private reply',
    createdAt: 1,
    state: 'pending',
  })
  await db.bulkJobs.put({
    id: '42',
    kind: 'standard',
    pageId: 'p1',
    pageName: 'Shop',
    text: 'hello',
    messagingType: 'RESPONSE',
    labels: [],
    total: 1,
    brandedFrom: -1,
    state: 'running',
    createdAt: 1,
    nextSendAt: 0,
    lease: 1,
    sent: 0,
    rejected: 0,
    skipped: 0,
  })
  await db.bulkRecipients.put({
    key: '42:u1',
    jobId: '42',
    recipientId: 'u1',
    name: 'Customer',
    conversationId: 'c1',
    order: 0,
    state: 'sending',
    attempts: 1,
  })
  await db.touchOutbox.put({
    key: '42:u1',
    jobId: '42',
    recipientId: 'u1',
    body: {},
    createdAt: 1,
    attempts: 0,
  })
  await db.table('bulkRecipientChunks').put({ jobId: '42', chunk: 0, members: [] })
  await db.table('inboxPages').put({ id: 'p1', name: 'Shop' })
  if (owner) await db.meta.put({ key: 'owner', value: owner })
  saveSnapshot({ fbUser: { id: owner ?? '1', name: 'Dana' }, accounts: [{ id: 'p1', name: 'Shop' }] })
  const cache = await caches.open(PICTURE_CACHE)
  await cache.put('/sandbox/avatar/u1.png', new Response('picture'))
}

async function rowsLeft(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of db.tables) if (table.name !== 'meta') counts[table.name] = await table.count()
  return counts
}

const allEmpty = async () => Object.values(await rowsLeft()).every((n) => n === 0)

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()))
  await caches.delete(PICTURE_CACHE)
})

afterEach(() => {
  vi.restoreAllMocks()
  clearSessionToken()
})

describe('logout', () => {
  it('ends the session on the server with the bearer, then wipes every table, the snapshot and the pictures', async () => {
    configure('1')
    await leaveData('1')
    expect(await allEmpty()).toBe(false)
    signedInCookie('old-bearer-0123456789abcdef')
    sessionStore.reset({ status: 'logged_in', accounts: [], subscription: subscription('1') })
    const seen: { url: string; method: string; auth: string | null; emptyWhenCalled: boolean }[] = []
    vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
      const headers = new Headers(init?.headers)
      seen.push({
        url: String(input),
        method: init?.method ?? 'GET',
        auth: headers.get('Authorization'),
        emptyWhenCalled: await allEmpty(),
      })
      return Response.json({ ok: true })
    })

    await logout()

    const call = seen.find((c) => c.url.endsWith('/api/v2/logout'))
    expect(call).toMatchObject({ method: 'POST', auth: 'Bearer old-bearer-0123456789abcdef' })
    // The server is told first; the local state goes after.
    expect(call?.emptyWhenCalled).toBe(false)
    expect(await rowsLeft()).toEqual(Object.fromEntries(Object.keys(await rowsLeft()).map((k) => [k, 0])))
    expect(await allEmpty()).toBe(true)
    expect(loadSnapshot()).toBeUndefined()
    expect(await caches.has(PICTURE_CACHE)).toBe(false)
    expect(apiToken()).toBeUndefined()
    expect(sessionStore.getState().status).toBe('logged_out')
  })

  it('still wipes the device and clears the cookie when the server cannot be reached', async () => {
    configure('1')
    await leaveData('1')
    signedInCookie('old-bearer-0123456789abcdef')
    sessionStore.reset({ status: 'logged_in', accounts: [] })
    vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))

    await logout()

    expect(await allEmpty()).toBe(true)
    expect(apiToken()).toBeUndefined()
    expect(sessionStore.getState().status).toBe('logged_out')
  })
})

describe('signing in on a device that holds another user’s data', () => {
  it('wipes it before the signed-in screen is shown', async () => {
    await leaveData('1')
    configure('2')
    sessionStore.reset({ status: 'logged_out', accounts: [] })
    let emptyWhenShown: boolean | undefined
    const stop = sessionStore.subscribe(() => {
      if (sessionStore.getState().status === 'logged_in') void allEmpty().then((e) => (emptyWhenShown ??= e))
    })
    vi.spyOn(window, 'fetch').mockImplementation(async () => loginAnswer('2'))

    await loginWithSdk()
    stop()

    expect(sessionStore.getState().status).toBe('logged_in')
    await expect.poll(() => emptyWhenShown).toBe(true)
    expect(await allEmpty()).toBe(true)
    expect(await caches.has(PICTURE_CACHE)).toBe(false)
    expect((await db.meta.get('owner'))?.value).toBe('2')
  })

  it('keeps the data of the same user signing in again', async () => {
    await leaveData('2')
    configure('2')
    sessionStore.reset({ status: 'logged_out', accounts: [] })
    vi.spyOn(window, 'fetch').mockImplementation(async () => loginAnswer('2'))

    await loginWithSdk()

    expect(await allEmpty()).toBe(false)
    expect(await db.replyOutbox.count()).toBe(1)
  })

  it('wipes data without a recorded owner unless the last signed-in user is the one signing in', async () => {
    await leaveData()
    await db.meta.clear()
    configure('2')
    sessionStore.reset({ status: 'logged_out', accounts: [] })
    vi.spyOn(window, 'fetch').mockImplementation(async () => loginAnswer('2'))

    await loginWithSdk()

    expect(await allEmpty()).toBe(true)
  })
})
