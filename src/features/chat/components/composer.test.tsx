import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { Composer } from './composer.tsx'
import type { WindowStatus } from '../../../shared/policy/window.ts'

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

async function render(status: WindowStatus, onSend: (text: string, image?: File) => Promise<boolean>) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await act(async () => {
    root!.render(
      <I18nProvider i18n={i18n}>
        <Composer status={status} online trial={false} onSend={onSend} />
      </I18nProvider>,
    )
  })
  const text = host.querySelector<HTMLTextAreaElement>('[data-testid="reply-text"]')!
  const send = host.querySelector<HTMLButtonElement>('[data-testid="reply-send"]')!
  return { text, send }
}

async function type(el: HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!
  await act(async () => {
    setter.call(el, value)
    el.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

const open: WindowStatus = {
  canSend: true,
  messagingType: 'RESPONSE',
  reason: 'standard',
  closesAt: Date.now() + 3_600_000,
}

describe('Composer', () => {
  it('does nothing when the text is empty or blank', async () => {
    const onSend = vi.fn(async () => true)
    const { text, send } = await render(open, onSend)
    await act(async () => send.click())
    await type(text, '   ')
    await act(async () => send.click())
    expect(onSend).not.toHaveBeenCalled()
  })

  it('clears the text only once the reply is delivered or queued', async () => {
    const results = [false, true]
    const onSend = vi.fn(async () => results.shift()!)
    const { text, send } = await render(open, onSend)
    await type(text, 'Hello')
    await act(async () => send.click())
    expect(text.value).toBe('Hello')
    await act(async () => send.click())
    expect(onSend).toHaveBeenCalledTimes(2)
    expect(text.value).toBe('')
  })

  it('disables writing and sending outside the window and says why', async () => {
    const { text, send } = await render(
      { canSend: false, reason: 'closed' },
      vi.fn(async () => true),
    )
    expect(text.disabled).toBe(true)
    expect(send.disabled).toBe(true)
    expect(host!.querySelector('[data-testid="window-notice"]')?.textContent).toContain('more than 7 days')
  })
})
