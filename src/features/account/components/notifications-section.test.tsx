import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { NotificationsSection } from './notifications-section.tsx'
import { pushAvailability, type PushEnvironment } from '../api/push.ts'

const calls: Array<{ path: string; method?: string; body?: unknown }> = []
vi.mock('../../../shared/api/client.ts', () => ({
  api: async (path: string, options: { method?: string; body?: unknown } = {}) => {
    calls.push({ path, ...options })
    if (path === '/push/settings') return options.method === 'PUT' ? options.body : { hideText: false }
    if (path === '/push/key') return { publicKey: 'AAAA' }
    return {}
  },
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

async function render() {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={i18n}>
          <NotificationsSection />
        </I18nProvider>
      </QueryClientProvider>,
    )
  })
  const q = (id: string) => host!.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)
  return { q }
}

beforeEach(() => {
  calls.length = 0
  vi.spyOn(Notification, 'permission', 'get').mockReturnValue('default')
})
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  vi.restoreAllMocks()
})

describe('the notifications switch', () => {
  it('never asks for permission when the page loads', async () => {
    const ask = vi.spyOn(Notification, 'requestPermission')
    const { q } = await render()
    await vi.waitFor(() => expect(q('notifications-switch')!.disabled).toBe(false))
    expect(q('notifications-switch')!.getAttribute('aria-checked')).toBe('false')
    expect(q('notifications-switch')!.getAttribute('role')).toBe('switch')
    expect(ask).not.toHaveBeenCalled()
  })

  it('asks once the owner turns it on, and says how to unblock when the answer is no', async () => {
    const ask = vi.spyOn(Notification, 'requestPermission').mockResolvedValue('denied')
    const { q } = await render()
    await vi.waitFor(() => expect(q('notifications-switch')!.disabled).toBe(false))
    await act(async () => q('notifications-switch')!.click())
    expect(ask).toHaveBeenCalledTimes(1)
    await vi.waitFor(() =>
      expect(q('notifications-unavailable')?.textContent).toMatch(/blocked for Pagecast/),
    )
    expect(q('notifications-switch')!.getAttribute('aria-checked')).toBe('false')
    expect(q('notifications-switch')!.disabled).toBe(true)
    expect(calls.filter((c) => c.path === '/push/subscription')).toEqual([])
  })

  it("says why the switch stayed off when the browser's question was closed without an answer", async () => {
    vi.spyOn(Notification, 'requestPermission').mockResolvedValue('default')
    const { q } = await render()
    await vi.waitFor(() => expect(q('notifications-switch')!.disabled).toBe(false))
    await act(async () => q('notifications-switch')!.click())
    await vi.waitFor(() =>
      expect(q('notifications-problem')?.textContent).toMatch(/closed the browser's question.*choose Allow/),
    )
    expect(q('notifications-switch')!.getAttribute('aria-checked')).toBe('false')
    expect(q('notifications-switch')!.disabled).toBe(false)
  })

  it('says why the switch stayed off when the push service refuses the device', async () => {
    vi.spyOn(Notification, 'requestPermission').mockResolvedValue('granted')
    const refused = new DOMException('Registration failed - push service not available', 'AbortError')
    const registration = {
      pushManager: { getSubscription: async () => null, subscribe: () => Promise.reject(refused) },
    } as unknown as ServiceWorkerRegistration
    vi.spyOn(navigator.serviceWorker, 'getRegistration').mockResolvedValue(registration)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { q } = await render()
    await vi.waitFor(() => expect(q('notifications-switch')!.disabled).toBe(false))
    await act(async () => q('notifications-switch')!.click())
    await vi.waitFor(() =>
      expect(q('notifications-problem')?.textContent).toMatch(/push service refused this device/),
    )
    expect(q('notifications-switch')!.getAttribute('aria-checked')).toBe('false')
  })

  it('stores the hide-text setting for the owner', async () => {
    const { q } = await render()
    await vi.waitFor(() => expect(q('notifications-hide-text')!.disabled).toBe(false))
    await act(async () => q('notifications-hide-text')!.click())
    await vi.waitFor(() => expect(q('notifications-hide-text')!.getAttribute('aria-checked')).toBe('true'))
    expect(calls).toContainEqual({ path: '/push/settings', method: 'PUT', body: { hideText: true } })
  })
})

describe('where notifications can be turned on', () => {
  const env = (over: Partial<PushEnvironment>): PushEnvironment => ({
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0.0.0 Mobile Safari/537.36',
    maxTouchPoints: 5,
    standalone: false,
    hasPush: true,
    permission: 'default',
    ...over,
  })
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile Safari/604.1'
  const ipad =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15'

  it('tells iPhone and iPad users to install the app, and others whether the browser can', () => {
    expect(pushAvailability(env({}))).toBe('available')
    expect(pushAvailability(env({ permission: 'denied' }))).toBe('denied')
    expect(pushAvailability(env({ userAgent: iphone, hasPush: false }))).toBe('ios-install')
    expect(pushAvailability(env({ userAgent: ipad, hasPush: false }))).toBe('ios-install')
    expect(pushAvailability(env({ userAgent: iphone, hasPush: true, standalone: true }))).toBe('available')
    expect(pushAvailability(env({ userAgent: ipad, maxTouchPoints: 0, hasPush: false }))).toBe('unsupported')
  })
})
