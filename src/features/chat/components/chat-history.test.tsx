import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { CachedMessage } from '../../../device/db/db.ts'
import type { MarketingState, SentOptinRequest } from '../../../core/contracts/marketing.ts'
import { ChatHistory } from './chat-history.tsx'

/** The server as the history reads it: the page's marketing state and the customer's opt-in requests. */
const server = { enabled: true, requests: [] as SentOptinRequest[], calls: [] as string[] }
async function fakeApi(path: string) {
  server.calls.push(path)
  if (path === '/pages/p1/marketing')
    return { enabled: server.enabled, optin_title_default: 'Updates and promotions' } as MarketingState
  if (path.startsWith('/pages/p1/marketing/optin-requests?')) return { data: server.requests }
  throw new Error(`unexpected ${path}`)
}
vi.mock('../../../shared/api/client.ts', () => ({ api: fakeApi, silentApi: fakeApi }))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const pageId = 'p1'
const message = (n: number): CachedMessage => ({
  key: `${pageId}:m${n}`,
  pageId,
  conversationId: 't1',
  id: `m${n}`,
  createdAt: 1_700_000_000_000 + n * 60_000,
  fromId: n % 2 ? pageId : 'c1',
  fromName: '',
  toId: '',
  text: n % 5 === 0 ? `Message ${n}\nwith a second line\nand a third` : `Message ${n}`,
  imageUrls: [],
})
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => message(from + i))

// The layout utilities the history relies on (the app's stylesheet is not part of these tests).
const style = document.createElement('style')
style.textContent = `.flex{display:flex}.flex-col{flex-direction:column}.flex-1{flex:1 1 0%}.min-h-0{min-height:0}
.overflow-y-auto{overflow-y:auto}.relative{position:relative}.w-full{width:100%}.items-end{align-items:flex-end}`
document.head.append(style)

let root: Root | undefined
let host: HTMLElement | undefined

async function render(messages: CachedMessage[], onLoadOlder = async () => {}, online = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const tree = (list: CachedMessage[]) => (
    <QueryClientProvider client={client}>
      <I18nProvider i18n={i18n}>
        <div style={{ height: 400, width: 360, display: 'flex', flexDirection: 'column' }}>
          <ChatHistory
            pageId={pageId}
            conversationId="t1"
            customerId="c1"
            online={online}
            messages={list}
            pending={[]}
            loadingOlder={false}
            complete={false}
            bottomSignal={0}
            onLoadOlder={onLoadOlder}
            onDiscard={() => {}}
          />
        </div>
      </I18nProvider>
    </QueryClientProvider>
  )
  const draw = async (list: CachedMessage[]) => act(async () => root!.render(tree(list)))
  /** An urgent render (as a query's state change brings): committed at once, without act. */
  const drawNow = (list: CachedMessage[]) => flushSync(() => root!.render(tree(list)))
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await draw(messages)
  const el = host.querySelector<HTMLDivElement>('[data-testid="chat-history"]')!
  return { el, draw, drawNow }
}

const fromBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight
const shown = (el: HTMLElement, text: string) => {
  const item = [...el.querySelectorAll('[data-testid="chat-message"]')].find((m) =>
    m.textContent?.startsWith(text),
  )
  if (!item) return undefined
  const box = el.getBoundingClientRect()
  const b = item.getBoundingClientRect()
  return { top: b.top - box.top, visible: b.bottom > box.top && b.top < box.bottom }
}

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  Object.assign(server, { enabled: true, requests: [], calls: [] })
})

describe('ChatHistory (virtualised, anchored at the bottom)', () => {
  it('opens on the newest message with only the messages in view in the DOM', async () => {
    const { el } = await render(range(100, 300))
    await expect.poll(() => shown(el, 'Message 299')?.visible).toBe(true)
    expect(fromBottom(el)).toBeLessThan(2)
    expect(el.querySelectorAll('[data-testid="chat-message"]').length).toBeLessThan(40)
    expect(el.dataset.count).toBe('200')
  })

  it('follows a new message at the bottom, and keeps the reading place when older ones are prepended', async () => {
    let asked = 0
    const { el, draw } = await render(range(100, 300), async () => {
      asked += 1
    })
    await expect.poll(() => shown(el, 'Message 299')?.visible).toBe(true)
    await draw(range(100, 301))
    await expect.poll(() => shown(el, 'Message 300')?.visible).toBe(true)
    await expect.poll(() => fromBottom(el)).toBeLessThan(2)

    // Read somewhere near the top, then older messages arrive: the message read stays where it was.
    await act(async () => {
      el.scrollTop = 30
      el.dispatchEvent(new Event('scroll'))
    })
    await expect.poll(() => asked).toBeGreaterThan(0)
    await expect.poll(() => shown(el, 'Message 101')?.visible).toBe(true)
    const before = shown(el, 'Message 101')!.top
    await draw(range(50, 301))
    await expect.poll(() => el.dataset.count).toBe('251')
    await expect.poll(() => Math.abs(shown(el, 'Message 101')!.top - before)).toBeLessThan(2)
    expect(el.scrollTop).toBeGreaterThan(1000)
  })

  it('once drawn, takes a new list in the render that brings it, so an urgent one never commits an older list', async () => {
    // The virtualizer takes its list during render: a deferred list would leave it anchoring a list not yet
    // on screen, and a prepend interrupted by an urgent render jumped the view to the end.
    const { el, drawNow } = await render(range(100, 300))
    await expect.poll(() => shown(el, 'Message 299')?.visible).toBe(true)
    drawNow(range(50, 300))
    expect(el.dataset.count).toBe('250')
  })

  it('shows a page message the server recorded as an opt-in request as the subscription request, though this tab never sent it', async () => {
    // m3 and m7 are the page's (odd numbers); the server knows m7 as a request sent from another device.
    server.requests = [{ message_id: 'm7', title: 'Weekly offers', sent_at: new Date().toISOString() }]
    const { el } = await render(range(1, 10), async () => {}, true)
    await vi.waitFor(() => expect(el.querySelector('[data-testid="optin-request"]')).not.toBeNull())
    const requests = [...el.querySelectorAll('[data-testid="optin-request"]')]
    expect(requests).toHaveLength(1)
    expect(requests[0]!.textContent).toContain('Subscription request: Weekly offers')
    expect(requests[0]!.textContent).toContain('Message 7')
    expect(server.calls).toContain('/pages/p1/marketing/optin-requests?psid=c1')
  })

  it('reads no opt-in requests while the page has marketing messages off, nor while offline', async () => {
    server.requests = [{ message_id: 'm7', title: 'Weekly offers', sent_at: new Date().toISOString() }]
    server.enabled = false
    const off = await render(range(1, 10), async () => {}, true)
    await vi.waitFor(() => expect(server.calls).toContain('/pages/p1/marketing'))
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(server.calls.some((c) => c.includes('optin-requests'))).toBe(false)
    expect(off.el.querySelector('[data-testid="optin-request"]')).toBeNull()
    act(() => root?.unmount())
    host?.remove()

    server.enabled = true
    server.calls = []
    const offline = await render(range(1, 10), async () => {}, false)
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(server.calls).toEqual([])
    expect(offline.el.querySelector('[data-testid="optin-request"]')).toBeNull()
  })
})
