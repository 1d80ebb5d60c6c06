import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { MarketingAdAccount, MarketingState } from '../../../core/contracts/marketing.ts'
import { ApiError } from '../../../core/api/request.ts'
import { MarketingPanel, type MarketingDeps } from './marketing-sheet.tsx'

const calls: Array<{ path: string; method?: string; body?: unknown }> = []
let state: MarketingState
let accounts: MarketingAdAccount[]
let enableAnswer: (() => unknown) | undefined

async function fakeApi(path: string, options: { method?: string; body?: unknown } = {}) {
  calls.push({ path, ...options })
  const method = options.method ?? 'GET'
  if (path === '/pages/p1/marketing' && method === 'GET') return state
  if (path === '/pages/p1/marketing/ad-accounts') return { data: accounts }
  if (path === '/pages/p1/marketing' && method === 'PUT') {
    if (enableAnswer) return enableAnswer()
    state = { ...state, enabled: true, ad_account: { id: 'act_1', name: 'Tienda Sol Ads', currency: 'MXN' } }
    return state
  }
  if (path === '/pages/p1/marketing' && method === 'DELETE') {
    state = { ...state, enabled: false }
    return {}
  }
  if (path === '/pages/p1/marketing/sync') {
    state = { ...state, subscribers: { active: 41, stopped: 2 }, tokens_synced_at: '2026-11-23T10:00:00Z' }
    return { active: 41, stopped: 2, added: 1, removed: 0 }
  }
  throw new Error(`unexpected ${method} ${path}`)
}
vi.mock('../../../shared/api/client.ts', () => ({
  api: fakeApi,
  silentApi: fakeApi,
  isApiError: (e: unknown) => e instanceof Error && 'status' in e,
}))
// The shared marketing error texts are their own module's concern: here a code reads as itself.
vi.mock('../model/error-text.ts', () => ({
  refusalText: (body: { code?: string }) => ({ id: 'refusal', message: `Refused: ${body?.code ?? 'none'}` }),
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const off: MarketingState = {
  enabled: false,
  ad_account: null,
  country: null,
  available: null,
  subscribers: { active: 0, stopped: 0 },
  tokens_synced_at: null,
  optin_title_default: 'Updates and promotions',
}
const mx: MarketingAdAccount = {
  id: 'act_1',
  name: 'Tienda Sol Ads',
  currency: 'MXN',
  country: 'MX',
  active: true,
  available: true,
}
const de: MarketingAdAccount = {
  id: 'act_2',
  name: 'Sol Europe',
  currency: 'EUR',
  country: 'DE',
  active: true,
  available: false,
}
const old: MarketingAdAccount = {
  id: 'act_3',
  name: 'Old account',
  currency: 'MXN',
  country: 'MX',
  active: false,
  available: true,
}

let root: Root | undefined
let host: HTMLElement | undefined
const order: string[] = []

function deps(over: Partial<MarketingDeps> = {}): Partial<MarketingDeps> {
  return {
    requestPermissions: vi.fn(async (scopes: readonly string[]) => {
      order.push(`permissions:${scopes.join(',')}`)
      return { granted: true as const, userToken: 'user-2' }
    }),
    freshPageToken: vi.fn(async () => {
      order.push('page-token')
      return 'page-fresh'
    }),
    ...over,
  }
}

async function render(d: Partial<MarketingDeps>) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={i18n}>
          <MarketingPanel pageId="p1" deps={d} />
        </I18nProvider>
      </QueryClientProvider>,
    )
  })
}

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
const button = (name: string) =>
  [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name)
async function click(el: HTMLElement | null | undefined) {
  if (!el) throw new Error('nothing to click')
  await act(async () => el.click())
}

beforeEach(() => {
  calls.length = 0
  order.length = 0
  state = { ...off }
  accounts = [mx, de, old]
  enableAnswer = undefined
})
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

describe('turning marketing messages on', () => {
  it('explains first, naming the served countries and the unreached ones, and asks nothing yet', async () => {
    const d = deps()
    await render(d)
    await vi.waitFor(() => expect(byTestId('marketing-explain')).not.toBeNull())
    expect(byTestId('marketing-served')!.textContent).toContain('Mexico')
    expect(byTestId('marketing-served')!.textContent).toContain('Philippines')
    expect(byTestId('marketing-unreached')!.textContent).toMatch(
      /European Union.*Japan.*South Korea.*Australia/,
    )
    expect(byTestId('marketing-explain')!.textContent).toContain('ad account')
    expect(d.requestPermissions).not.toHaveBeenCalled()
  })

  it('asks for the two extra permissions on Continue, then turns on with a page token read after them', async () => {
    const d = deps()
    await render(d)
    await vi.waitFor(() => expect(button('Continue')).toBeDefined())
    await click(button('Continue'))
    await vi.waitFor(() => expect(byTestId('marketing-accounts')).not.toBeNull())
    expect(calls.find((c) => c.path.endsWith('/ad-accounts'))?.body).toEqual({ user_token: 'user-2' })
    const rows = [...document.querySelectorAll('[data-testid="ad-account"]')]
    expect(rows.map((r) => r.querySelector('input')!.disabled)).toEqual([false, true, true])
    expect(rows[1]!.textContent).toContain('Not available for businesses in Germany.')
    expect(rows[2]!.textContent).toContain('This ad account is not active.')
    // The only usable account is chosen already.
    await click(button('Turn on'))
    await vi.waitFor(() => expect(byTestId('marketing-status')).not.toBeNull())
    expect(order).toEqual(['permissions:ads_management,paid_marketing_messages', 'page-token'])
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      page_token: 'page-fresh',
      ad_account_id: 'act_1',
    })
    expect(byTestId('marketing-ad-account')!.textContent).toBe('Tienda Sol Ads (MXN)')
  })

  it('says plainly what was declined and lets the owner try again', async () => {
    let answer: 'declined' | 'granted' = 'declined'
    const d = deps({
      requestPermissions: vi.fn(async () =>
        answer === 'declined'
          ? { granted: false as const, reason: 'declined' as const, missing: ['paid_marketing_messages'] }
          : { granted: true as const, userToken: 'user-2' },
      ),
    })
    await render(d)
    await vi.waitFor(() => expect(button('Continue')).toBeDefined())
    await click(button('Continue'))
    await vi.waitFor(() => expect(byTestId('marketing-declined')).not.toBeNull())
    expect(byTestId('marketing-declined')!.textContent).toContain('Nothing was changed')
    expect(calls.some((c) => c.path.endsWith('/ad-accounts'))).toBe(false)
    answer = 'granted'
    await click(button('Try again'))
    await vi.waitFor(() => expect(byTestId('marketing-accounts')).not.toBeNull())
    expect(d.requestPermissions).toHaveBeenCalledTimes(2)
  })

  it('says so plainly when no ad account is in a served country', async () => {
    accounts = [de, old]
    await render(deps())
    await vi.waitFor(() => expect(button('Continue')).toBeDefined())
    await click(button('Continue'))
    await vi.waitFor(() => expect(byTestId('marketing-none-usable')).not.toBeNull())
    expect(byTestId('marketing-none-usable')!.textContent).toBe(
      "Marketing messages aren't available for businesses in Germany.",
    )
    expect(button('Turn on')!.disabled).toBe(true)
  })

  it("shows the server's refusal as its text and stays on the account step", async () => {
    enableAnswer = () => {
      throw new ApiError(
        422,
        { code: 'region_unavailable', errors: { ad_account_id: ['region_unavailable'] } },
        '',
      )
    }
    await render(deps())
    await vi.waitFor(() => expect(button('Continue')).toBeDefined())
    await click(button('Continue'))
    await vi.waitFor(() => expect(button('Turn on')?.disabled).toBe(false))
    await click(button('Turn on'))
    await vi.waitFor(() =>
      expect(byTestId('marketing-error')?.textContent).toBe('Refused: region_unavailable'),
    )
    expect(byTestId('marketing-status')).toBeNull()
  })
})

describe('marketing messages on', () => {
  beforeEach(() => {
    state = {
      ...off,
      enabled: true,
      ad_account: { id: 'act_1', name: 'Tienda Sol Ads', currency: 'MXN' },
      country: 'MX',
      available: true,
      subscribers: { active: 40, stopped: 1 },
    }
  })

  it('shows the subscribers and reads them again from the network with a fresh page token', async () => {
    const d = deps()
    await render(d)
    await vi.waitFor(() =>
      expect(byTestId('marketing-subscribers')?.textContent).toBe('40 active, 1 stopped'),
    )
    expect(byTestId('marketing-synced')!.textContent).toBe('Not yet')
    await click(button('Refresh subscribers'))
    await vi.waitFor(() =>
      expect(byTestId('marketing-subscribers')?.textContent).toBe('41 active, 2 stopped'),
    )
    expect(calls.find((c) => c.path.endsWith('/sync'))?.body).toEqual({ page_token: 'page-fresh' })
    expect(byTestId('marketing-synced')!.textContent).toContain('2026')
  })

  it('turns off only after a confirmation', async () => {
    await render(deps())
    await vi.waitFor(() => expect(button('Turn off…')).toBeDefined())
    await click(button('Turn off…'))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await click(button('Keep on'))
    expect(byTestId('marketing-status')).not.toBeNull()
    await click(button('Turn off…'))
    await click(button('Turn off'))
    await vi.waitFor(() => expect(byTestId('marketing-explain')).not.toBeNull())
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1)
  })
})
