import { afterEach, describe, expect, it } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type CachedMessage, db } from '../../../device/db/db.ts'
import { useReceipts } from '../../../shared/live/use-receipts.ts'
import { ChatHistory } from './chat-history.tsx'

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const PAGE = 'p1'
const T = 1_700_000_000_000
let root: Root | undefined
let host: HTMLElement | undefined

afterEach(async () => {
  act(() => root?.unmount())
  host?.remove()
  await db.receipts.clear()
})

const msg = (id: string, at: number, fromPage: boolean): CachedMessage => ({
  key: `${PAGE}:${id}`,
  pageId: PAGE,
  conversationId: 'c1',
  id,
  createdAt: at,
  fromId: fromPage ? PAGE : 'u1',
  fromName: fromPage ? '' : 'Dara',
  toId: fromPage ? 'u1' : PAGE,
  text: id,
  imageUrls: [],
})

const history = [
  msg('hello', T, false),
  msg('first', T + 1_000, true),
  msg('second', T + 2_000, true),
  msg('third', T + 3_000, true),
]

function Chat() {
  const receipts = useReceipts(PAGE, 'u1')
  return (
    <ChatHistory
      pageId={PAGE}
      conversationId="c1"
      customerId="u1"
      online={false}
      messages={history}
      pending={[]}
      loadingOlder={false}
      complete
      bottomSignal={0}
      receipts={receipts}
      onLoadOlder={async () => undefined}
      onDiscard={() => undefined}
    />
  )
}

async function render() {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await act(async () => {
    root!.render(
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider i18n={i18n}>
          <Chat />
        </I18nProvider>
      </QueryClientProvider>,
    )
  })
}

const marks = () =>
  [...host!.querySelectorAll('[data-testid="chat-message"]')].map((li) => {
    const text = li.querySelector('p')?.textContent
    const mark = li.querySelector('[data-testid="receipt-mark"]')
    return `${text}:${mark?.getAttribute('aria-label') ?? '-'}`
  })

describe("the receipt marks of the page's messages", () => {
  it('follow the stored watermarks: read up to the read one, delivered up to the delivery one, sent after', async () => {
    await render()
    await expect.poll(marks).toEqual(['hello:-', 'first:Sent', 'second:Sent', 'third:Sent'])
    await act(async () => {
      await db.receipts.put({ key: `${PAGE}:u1`, pageId: PAGE, customerId: 'u1', delivered: T + 2_000 })
    })
    await expect.poll(marks).toEqual(['hello:-', 'first:Delivered', 'second:Delivered', 'third:Sent'])
    await act(async () => {
      await db.receipts.put({
        key: `${PAGE}:u1`,
        pageId: PAGE,
        customerId: 'u1',
        delivered: T + 3_000,
        read: T + 1_000,
      })
    })
    await expect.poll(marks).toEqual(['hello:-', 'first:Read', 'second:Delivered', 'third:Delivered'])
    // The mark is an image with a name for assistive technology, inside the message's bubble.
    const mark = host!.querySelector('[data-receipt="read"]')!
    expect(mark.getAttribute('role')).toBe('img')
    const bubble = mark.closest('li')!.firstElementChild!.getBoundingClientRect()
    const box = mark.getBoundingClientRect()
    expect(box.left).toBeGreaterThanOrEqual(bubble.left)
    expect(box.right).toBeLessThanOrEqual(bubble.right)
    expect(box.bottom).toBeLessThanOrEqual(bubble.bottom)
  })
})
