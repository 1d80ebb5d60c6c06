import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { MarketingState, OptinCheckResponse } from '../../../core/contracts/marketing.ts'
import { closeAllModals } from '../../../shared/ui/modal-stack.ts'
import { AskToSubscribe, type AskToSubscribeProps } from './ask-to-subscribe.tsx'
import { MessageBubble } from './message-bubble.tsx'
import { optInRequestBody } from '../../../core/graph/marketing.ts'

const calls: Array<{ path: string; method?: string; body?: unknown }> = []
let enabled = true
let check: (title: string) => OptinCheckResponse
async function fakeApi(path: string, options: { method?: string; body?: unknown } = {}) {
  calls.push({ path, ...options })
  if (path === '/pages/p1/marketing') {
    const state: MarketingState = {
      enabled,
      ad_account: null,
      country: 'MX',
      available: true,
      subscribers: { active: 1, stopped: 0 },
      tokens_synced_at: null,
      optin_title_default: 'Updates and promotions',
    }
    return state
  }
  if (path === '/pages/p1/marketing/optin-requests/check')
    return check((options.body as { title: string }).title)
  if (path === '/pages/p1/marketing/optin-requests') return {}
  throw new Error(`unexpected ${path}`)
}
vi.mock('../../../shared/api/client.ts', () => ({ api: fakeApi, silentApi: fakeApi }))
// The shared marketing error texts are their own module's concern: here a name reads as itself.
vi.mock('../model/marketing-error.ts', () => ({
  marketingRefusalText: (err: { marketing?: string }) =>
    err.marketing ? { id: err.marketing, message: `Text for ${err.marketing}` } : undefined,
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

async function render(node: React.ReactNode) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={i18n}>{node}</I18nProvider>
      </QueryClientProvider>,
    )
  })
}

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`)
async function click(el: HTMLElement | null) {
  if (!el) throw new Error('nothing to click')
  await act(async () => el.click())
}

function props(over: Partial<AskToSubscribeProps> = {}): AskToSubscribeProps {
  return {
    pageId: 'p1',
    entered: true,
    customerId: '123',
    customerName: 'Ana',
    inWindow: true,
    send: vi.fn(async () => ({ message_id: 'm.1' })),
    onSent: vi.fn(),
    ...over,
  }
}

beforeEach(() => {
  calls.length = 0
  enabled = true
  check = () => ({ allowed: ['123'], refused: [] })
})
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  closeAllModals()
})

describe('Ask to subscribe in a chat', () => {
  // The sheet is its own chunk: fetched (and, here, compiled) before the tests, so a busy machine's first
  // compile is not counted against the tests' waits for what the sheet shows.
  beforeAll(async () => {
    await import('./ask-to-subscribe-sheet.tsx')
  })
  it("is not offered while the page's marketing messages are off", async () => {
    enabled = false
    await render(<AskToSubscribe {...props()} />)
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/pages/p1/marketing')).toBe(true))
    await new Promise((r) => setTimeout(r, 50))
    expect(byTestId('ask-to-subscribe')).toBeNull()
  })

  it('reads nothing and offers nothing before the page is entered', async () => {
    enabled = true
    await render(<AskToSubscribe {...props({ entered: false })} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(calls).toEqual([])
    expect(byTestId('ask-to-subscribe')).toBeNull()
  })

  it('outside the 24-hour window is shown disabled, and a tap says why without asking anything', async () => {
    const p = props({ inWindow: false })
    await render(<AskToSubscribe {...p} />)
    await vi.waitFor(() => expect(byTestId('ask-to-subscribe')).not.toBeNull())
    expect(byTestId('ask-to-subscribe')!.getAttribute('aria-disabled')).toBe('true')
    await click(byTestId('ask-to-subscribe'))
    await vi.waitFor(() => expect(byTestId('ask-reason')?.textContent).toContain('within 24 hours'))
    expect(byTestId('ask-send')).toBeNull()
    expect(calls.some((c) => c.path.includes('optin-requests'))).toBe(false)
    expect(p.send).not.toHaveBeenCalled()
  })

  it('says when this title was used this week, and sends with a new title, then records it', async () => {
    check = (title) =>
      title === 'Updates and promotions'
        ? {
            allowed: [],
            refused: [{ psid: '123', reason: 'asked_this_week', next_at: '2026-11-28T12:00:00Z' }],
          }
        : { allowed: ['123'], refused: [] }
    const p = props()
    await render(<AskToSubscribe {...p} />)
    await vi.waitFor(() => expect(byTestId('ask-to-subscribe')).not.toBeNull())
    await click(byTestId('ask-to-subscribe'))
    await vi.waitFor(() => expect(byTestId('ask-reason')?.textContent).toContain('November 28, 2026'))
    expect(byTestId<HTMLInputElement>('ask-title')!.value).toBe('Updates and promotions')
    expect(byTestId<HTMLButtonElement>('ask-send')!.disabled).toBe(true)
    const input = byTestId<HTMLInputElement>('ask-title')!
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
      setter.call(input, 'Weekend deals')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(byTestId('ask-reason')).toBeNull()
    await click(byTestId('ask-send'))
    await vi.waitFor(() => expect(byTestId('ask-sent')).not.toBeNull())
    expect(p.send).toHaveBeenCalledWith('123', 'Weekend deals')
    const checks = calls.filter((c) => c.path.endsWith('/check')).map((c) => c.body)
    expect(checks).toEqual([
      { psids: ['123'], title: 'Updates and promotions' },
      { psids: ['123'], title: 'Weekend deals' },
    ])
    // Recorded with the network's message id, so the chat on any device shows it as the request.
    expect(calls.find((c) => c.path.endsWith('/optin-requests'))?.body).toEqual({
      messages: [{ psid: '123', message_id: 'm.1' }],
      title: 'Weekend deals',
    })
    expect(p.onSent).toHaveBeenCalled()
  })

  it('says so when the customer is already subscribed, and offers nothing to send', async () => {
    check = () => ({ allowed: [], refused: [{ psid: '123', reason: 'subscribed' }] })
    const p = props()
    await render(<AskToSubscribe {...p} />)
    await vi.waitFor(() => expect(byTestId('ask-to-subscribe')).not.toBeNull())
    await click(byTestId('ask-to-subscribe'))
    await vi.waitFor(() => expect(byTestId('ask-reason')?.textContent).toContain('already subscribed'))
    expect(byTestId('ask-send')).toBeNull()
    expect(p.send).not.toHaveBeenCalled()
  })

  it('does not record a request the network refused', async () => {
    const p = props({
      send: vi.fn(async () => {
        throw new Error('Outside of allowed window')
      }),
    })
    await render(<AskToSubscribe {...p} />)
    await vi.waitFor(() => expect(byTestId('ask-to-subscribe')).not.toBeNull())
    await click(byTestId('ask-to-subscribe'))
    await vi.waitFor(() => expect(byTestId<HTMLButtonElement>('ask-send')?.disabled).toBe(false))
    await click(byTestId('ask-send'))
    await vi.waitFor(() => expect(byTestId('ask-error')?.textContent).toContain('Outside of allowed window'))
    expect(calls.some((c) => c.path.endsWith('/optin-requests'))).toBe(false)
  })
})

describe('a documented refusal of the network', () => {
  it('shows its own text and records nothing', async () => {
    const p = props({
      send: vi.fn(async () => {
        throw Object.assign(new Error('Scope of service exceeded'), { marketing: 'optin_weekly_limit' })
      }),
    })
    await render(<AskToSubscribe {...p} />)
    await vi.waitFor(() => expect(byTestId('ask-to-subscribe')).not.toBeNull())
    await click(byTestId('ask-to-subscribe'))
    await vi.waitFor(() => expect(byTestId<HTMLButtonElement>('ask-send')?.disabled).toBe(false))
    await click(byTestId('ask-send'))
    await vi.waitFor(() => expect(byTestId('ask-error')?.textContent).toBe('Text for optin_weekly_limit'))
    expect(calls.some((c) => c.path.endsWith('/optin-requests'))).toBe(false)
  })
})

describe('the opt-in request', () => {
  it("is the network's notification_messages template, sent as a response", () => {
    expect(
      optInRequestBody('123', { title: 'Updates and promotions', payload: 'optin:Updates and promotions' }),
    ).toEqual({
      recipient: { id: '123' },
      messaging_type: 'RESPONSE',
      message: {
        attachment: {
          type: 'template',
          payload: {
            template_type: 'notification_messages',
            title: 'Updates and promotions',
            payload: 'optin:Updates and promotions',
          },
        },
      },
    })
  })

  it('shows in the history as a subscription request, not as a plain message', async () => {
    await render(
      <ol>
        <MessageBubble text="" imageUrls={[]} mine at={Date.now()} optinTitle="Updates and promotions" />
      </ol>,
    )
    expect(byTestId('optin-request')!.textContent).toContain('Subscription request: Updates and promotions')
    expect(byTestId('chat-message')).toBeNull()
  })
})
