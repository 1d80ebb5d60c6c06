import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { Composer } from './composer.tsx'
import type { WindowStatus } from '../../../core/policy/window.ts'

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

async function render(
  status: WindowStatus,
  onSend: (
    text: string,
    image?: File,
    onProgress?: (sent: number, total: number) => void,
  ) => Promise<boolean>,
  extra: { enterSends?: boolean } = {},
) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await act(async () => {
    root!.render(
      <I18nProvider i18n={i18n}>
        <Composer status={status} online trial={false} onSend={onSend} {...extra} />
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

/** Presses a key in the reply box as a keyboard would; true when the browser may apply it (not prevented). */
async function press(el: HTMLTextAreaElement, key: string, init: KeyboardEventInit = {}) {
  let applied = true
  await act(async () => {
    applied = el.dispatchEvent(
      new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }),
    )
  })
  return applied
}

async function pickImage(file: File) {
  const input = host!.querySelector<HTMLInputElement>('[data-testid="reply-image"]')!
  const list = new DataTransfer()
  list.items.add(file)
  await act(async () => {
    input.files = list.files
    input.dispatchEvent(new Event('change', { bubbles: true }))
  })
}

const png = () =>
  new File(
    [
      Uint8Array.from(
        atob(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
        ),
        (c) => c.charCodeAt(0),
      ),
    ],
    'dot.png',
    { type: 'image/png' },
  )

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

  it('sends on Enter with a desktop keyboard; Shift+Enter and an input method composing keep typing', async () => {
    const onSend = vi.fn(async () => true)
    const { text } = await render(open, onSend, { enterSends: true })
    await type(text, 'Hello')
    expect(await press(text, 'Enter', { shiftKey: true })).toBe(true)
    expect(await press(text, 'Enter', { isComposing: true })).toBe(true)
    expect(onSend).not.toHaveBeenCalled()
    expect(await press(text, 'Enter')).toBe(false)
    expect(onSend).toHaveBeenCalledWith('Hello', undefined)
    expect(text.value).toBe('')
  })

  it('keeps the return key for new lines on a touch device: only the Send button sends', async () => {
    const onSend = vi.fn(async () => true)
    const { text, send } = await render(open, onSend, { enterSends: false })
    await type(text, 'Hello')
    expect(await press(text, 'Enter')).toBe(true)
    expect(onSend).not.toHaveBeenCalled()
    await act(async () => send.click())
    expect(onSend).toHaveBeenCalledWith('Hello', undefined)
  })

  it('follows the pointer by default: Enter sends where the main pointer is not coarse', async () => {
    const onSend = vi.fn(async () => true)
    const { text } = await render(open, onSend)
    await type(text, 'Hi')
    const coarse = window.matchMedia('(pointer: coarse)').matches
    expect(await press(text, 'Enter')).toBe(coarse)
    expect(onSend).toHaveBeenCalledTimes(coarse ? 0 : 1)
    expect(text.getAttribute('enterkeyhint')).toBe(coarse ? 'enter' : 'send')
  })

  it('shows a picked image, lets it be removed (its object URL revoked), and sends an image-only reply', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL')
    const onSend = vi.fn(async () => true)
    const { send } = await render(open, onSend)
    await pickImage(png())
    const img = host!.querySelector<HTMLImageElement>('[data-testid="reply-image-preview-img"]')!
    expect(img.src).toMatch(/^blob:/)
    await expect.poll(() => img.naturalWidth).toBe(1)
    const url = img.src
    await act(async () =>
      host!.querySelector<HTMLButtonElement>('[data-testid="reply-image-remove"]')!.click(),
    )
    expect(host!.querySelector('[data-testid="reply-image-preview"]')).toBeNull()
    expect(revoke).toHaveBeenCalledWith(url)
    expect(host!.querySelector<HTMLInputElement>('[data-testid="reply-image"]')!.value).toBe('')
    await act(async () => send.click())
    expect(onSend).not.toHaveBeenCalled()

    const image = png()
    await pickImage(image)
    await act(async () => send.click())
    expect(onSend).toHaveBeenCalledWith('', image, expect.any(Function))
    expect(host!.querySelector('[data-testid="reply-image-preview"]')).toBeNull()
    revoke.mockRestore()
  })

  it("shows how much of a photo is sent while it goes up, and the photo's size", async () => {
    let report: ((sent: number, total: number) => void) | undefined
    let finish: (done: boolean) => void = () => {}
    const onSend = vi.fn(
      (_text: string, _image?: File, onProgress?: (sent: number, total: number) => void) =>
        new Promise<boolean>((resolve) => {
          report = onProgress
          finish = resolve
        }),
    )
    const { send } = await render(open, onSend)
    await pickImage(png())
    await act(async () => send.click())
    expect(host!.querySelector('[data-testid="reply-image-progress"]')).toBeNull()
    await act(async () => report!(230_000, 570_400))
    const progress = host!.querySelector('[data-testid="reply-image-progress"]')!
    expect(progress.textContent).toContain('230 kB of 570 kB')
    expect(progress.querySelector('progress')!.value).toBe(230_000)
    expect(progress.querySelector('progress')!.max).toBe(570_400)
    expect(host!.querySelector<HTMLButtonElement>('[data-testid="reply-image-remove"]')!.disabled).toBe(true)
    await act(async () => finish(true))
    expect(host!.querySelector('[data-testid="reply-image-progress"]')).toBeNull()
  })

  it('inserts a tool text (a saved reply) at the caret', async () => {
    let insert: ((s: string) => void) | undefined
    host = document.createElement('div')
    document.body.append(host)
    root = createRoot(host)
    await act(async () => {
      root!.render(
        <I18nProvider i18n={i18n}>
          <Composer
            status={open}
            online
            trial={false}
            onSend={async () => true}
            Tools={(p) => {
              insert = p.insert
              return null
            }}
          />
        </I18nProvider>,
      )
    })
    const text = host.querySelector<HTMLTextAreaElement>('[data-testid="reply-text"]')!
    await type(text, 'Hello !')
    text.setSelectionRange(6, 6)
    await act(async () => insert!('world'))
    expect(text.value).toBe('Hello world!')
  })
})
