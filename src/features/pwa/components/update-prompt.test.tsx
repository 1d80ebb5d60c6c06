import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { activateLocale } from '../../../i18n/activate.ts'
import { updateStore } from '../model/update-store.ts'
import { loadPwaWords } from '../model/use-pwa-words.ts'
import { UpdatePrompt } from './update-prompt.tsx'

// Lets act() flush renders synchronously, as in any React test environment.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root

// The prompt shows once its words are loaded, as in the app.
beforeAll(async () => {
  await activateLocale('en')
  await loadPwaWords()
})
let host: HTMLDivElement

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  act(() =>
    root.render(
      <I18nProvider i18n={i18n}>
        <UpdatePrompt store={updateStore} />
      </I18nProvider>,
    ),
  )
})

afterEach(() => {
  act(() => root.unmount())
  host.remove()
  act(() => updateStore.set({ waiting: false, deferred: false }))
})

const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === name)

describe('the update prompt', () => {
  it('stays hidden until a new version is waiting', () => {
    expect(host.textContent).toBe('')
    act(() => updateStore.set({ waiting: true }))
    expect(host.textContent).toContain('A new version is available')
  })

  it('applies the update when the user clicks Reload', async () => {
    const accept = vi.fn(async () => undefined)
    updateStore.setAccept(accept)
    act(() => updateStore.set({ waiting: true }))
    await act(async () => button('Reload')!.click())
    expect(accept).toHaveBeenCalledOnce()
  })

  it('explains the wait and disables Reload while messages are being sent', () => {
    act(() => updateStore.set({ waiting: true, deferred: true }))
    expect(host.textContent).toContain('the app will reload when sending stops')
    expect(button('Reload')!.disabled).toBe(true)
  })

  it('hides when the user chooses Later', () => {
    act(() => updateStore.set({ waiting: true }))
    act(() => button('Later')!.click())
    expect(host.textContent).toBe('')
  })
})
