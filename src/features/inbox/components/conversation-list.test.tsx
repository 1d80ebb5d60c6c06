import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { CachedConversation } from '../../../device/db/db.ts'
import { cachedRows } from '../testing/rows.ts'
import { ConversationList } from './conversation-list.tsx'

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

const rows: CachedConversation[] = cachedRows(30).map((r, i) => ({ ...r, unreadCount: i === 0 ? 3 : 0 }))

async function render(onRefresh: () => Promise<void>, shown: CachedConversation[] = rows) {
  host = document.createElement('div')
  host.style.cssText = 'display:flex;flex-direction:column;height:400px;width:360px'
  document.body.append(host)
  root = createRoot(host)
  await act(async () => {
    root!.render(
      <I18nProvider i18n={i18n}>
        <ConversationList
          rows={shown.map((r) => ({ ...r, needsReply: false }))}
          loading={false}
          exhausted
          filtering={false}
          pictureUrl={() => undefined}
          onSelect={() => undefined}
          onMarkDone={() => undefined}
          onEndReached={() => undefined}
          onRefresh={onRefresh}
          windowOptions={{ policy: 'current', humanAgentEnabled: false }}
          refreshing={false}
        />
      </I18nProvider>,
    )
  })
  return host.querySelector<HTMLElement>('[data-testid="conversation-list"]')!
}

function pointer(type: string, y: number, pointerType = 'touch') {
  return new PointerEvent(type, { bubbles: true, pointerId: 7, pointerType, clientY: y, isPrimary: true })
}

async function drag(list: HTMLElement, to: number, pointerType = 'touch') {
  await act(async () => {
    list.dispatchEvent(pointer('pointerdown', 100, pointerType))
    list.dispatchEvent(pointer('pointermove', 100 + to / 2, pointerType))
    list.dispatchEvent(pointer('pointermove', 100 + to, pointerType))
  })
}

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

describe('the conversation list', () => {
  it('shows a row’s unread count', async () => {
    const list = await render(async () => undefined)
    const badge = list.querySelector('[data-testid="conversation-unread"]')!
    expect(badge.getAttribute('data-count')).toBe('3')
    expect(badge.textContent).toContain('3 unread messages')
    expect(list.querySelectorAll('[data-testid="conversation-unread"]')).toHaveLength(1)
  })

  it('refreshes when pulled down far enough at its top on a touch screen', async () => {
    const onRefresh = vi.fn(async () => undefined)
    const list = await render(onRefresh)
    // At its top the browser may only pan it towards its end: a finger moving down stays a pointer gesture.
    expect(list.style.touchAction).toBe('pan-down')
    await drag(list, 60)
    expect(list.querySelector('[data-testid="pull-to-refresh"]')?.textContent).toBe('Pull to refresh')
    await act(async () => list.dispatchEvent(pointer('pointerup', 160)))
    expect(onRefresh).not.toHaveBeenCalled()

    await drag(list, 160)
    expect(list.querySelector('[data-testid="pull-to-refresh"]')?.textContent).toBe('Release to refresh')
    await act(async () => list.dispatchEvent(pointer('pointerup', 260)))
    expect(onRefresh).toHaveBeenCalledTimes(1)
    expect(list.querySelector('[data-testid="pull-to-refresh"]')).toBeNull()
  })

  it('does not refresh on a mouse drag, nor when the pull is taken over by a scroll', async () => {
    const onRefresh = vi.fn(async () => undefined)
    const list = await render(onRefresh)
    await drag(list, 160, 'mouse')
    await act(async () => list.dispatchEvent(pointer('pointerup', 260, 'mouse')))
    await drag(list, 160)
    await act(async () => list.dispatchEvent(pointer('pointercancel', 260)))
    expect(onRefresh).not.toHaveBeenCalled()
  })

  it('draws the rows in view first, and the rows beyond them at the next idle moment', async () => {
    // The app's style sheet is not loaded here: the list is made a 400 px scroller by a rule of its own.
    const style = document.createElement('style')
    style.textContent = '[data-testid="conversation-list"] { flex: 1; min-height: 0; overflow-y: auto }'
    document.head.append(style)
    // The browser's idle moments come when the test says.
    const idle: IdleRequestCallback[] = []
    const spy = vi.spyOn(window, 'requestIdleCallback').mockImplementation((run) => idle.push(run))
    try {
      const list = await render(async () => undefined, cachedRows(100))
      const drawn = () => list.querySelectorAll('[data-testid="conversation-row"]').length
      // Measured (two frames on), the list draws the seven rows its 400 px show (64 px each), none beyond.
      await act(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
      expect(drawn()).toBe(7)
      expect(idle.length).toBeGreaterThan(0)
      // At the idle moment: six more rows below the last one in view, none above the first (it is at its top).
      await act(async () => {
        for (const run of idle.splice(0)) run({ didTimeout: false, timeRemaining: () => 50 })
      })
      expect(drawn()).toBe(7 + 6)
    } finally {
      spy.mockRestore()
      style.remove()
    }
  })

  it('scrolls both ways once it is away from its top', async () => {
    const list = await render(async () => undefined)
    // The app's style sheet is not loaded here: the list is made a scroller by hand.
    list.style.height = '400px'
    list.style.overflowY = 'auto'
    await act(async () => {
      list.scrollTop = 300
      list.dispatchEvent(new Event('scroll'))
    })
    expect(list.style.touchAction).toBe('pan-y')
  })
})
