import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../core/api/request.ts'
import { base64urlToBytes, enablePush } from './push.ts'

const publicKey = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM'
const stored: string[] = []
let taken = new Set<string>()
vi.mock('../../../shared/api/client.ts', () => ({
  api: async (path: string, options: { method?: string; body?: { endpoint?: string } } = {}) => {
    if (path === '/push/key') return { publicKey }
    const endpoint = options.body?.endpoint ?? ''
    if (taken.has(endpoint)) throw new ApiError(409, { message: 'taken', code: 'endpoint_taken' }, 'taken')
    stored.push(endpoint)
    return { ok: true, stored: true }
  },
}))

function fakeSubscription(endpoint: string, key: Uint8Array) {
  return {
    endpoint,
    options: { applicationServerKey: key.buffer },
    toJSON: () => ({ endpoint, keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: vi.fn(async () => true),
  }
}

afterEach(() => {
  stored.length = 0
  taken = new Set()
  vi.restoreAllMocks()
})

describe('turning notifications on', () => {
  it('makes a new subscription when the browser’s one belongs to another account', async () => {
    const key = base64urlToBytes(publicKey)
    const old = fakeSubscription('https://fcm.googleapis.com/wp/old', key)
    const fresh = fakeSubscription('https://fcm.googleapis.com/wp/fresh', key)
    taken.add(old.endpoint)
    const subscribe = vi.fn(async () => fresh)
    vi.spyOn(Notification, 'requestPermission').mockResolvedValue('granted')
    vi.spyOn(navigator.serviceWorker, 'getRegistration').mockResolvedValue({
      pushManager: { getSubscription: async () => old, subscribe },
    } as unknown as ServiceWorkerRegistration)
    expect(await enablePush('en')).toBe('on')
    expect(old.unsubscribe).toHaveBeenCalledTimes(1)
    expect(subscribe).toHaveBeenCalledTimes(1)
    expect(stored).toEqual([fresh.endpoint])
  })

  it('keeps the browser’s subscription when it is the account’s own', async () => {
    const key = base64urlToBytes(publicKey)
    const own = fakeSubscription('https://fcm.googleapis.com/wp/own', key)
    const subscribe = vi.fn()
    vi.spyOn(Notification, 'requestPermission').mockResolvedValue('granted')
    vi.spyOn(navigator.serviceWorker, 'getRegistration').mockResolvedValue({
      pushManager: { getSubscription: async () => own, subscribe },
    } as unknown as ServiceWorkerRegistration)
    expect(await enablePush('en')).toBe('on')
    expect(own.unsubscribe).not.toHaveBeenCalled()
    expect(subscribe).not.toHaveBeenCalled()
    expect(stored).toEqual([own.endpoint])
  })
})
