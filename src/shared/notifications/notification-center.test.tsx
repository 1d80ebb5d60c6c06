import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act } from 'react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { NotificationCenter } from './notification-center.tsx'
import { dismissAll, notify } from './store.ts'
import { reactRootPerTest } from '../testing/react-root.ts'

const t = reactRootPerTest()

beforeEach(async () => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  await act(async () =>
    t.root.render(
      <I18nProvider i18n={i18n}>
        <NotificationCenter />
      </I18nProvider>,
    ),
  )
})
afterEach(() => {
  act(() => dismissAll())
})

const shown = () => [...document.querySelectorAll<HTMLElement>('[data-testid="notification"]')]

describe('the notification stack', () => {
  it('shows the newest first, right under the header, and the older ones below it', async () => {
    await act(async () => {
      notify({ kind: 'info', title: 'First' })
      notify({ kind: 'info', title: 'Second' })
    })
    expect(shown().map((n) => n.querySelector('p')?.textContent)).toEqual(['Second', 'First'])
  })

  it('closes a persistent notice with its close button', async () => {
    await act(async () => {
      notify({ kind: 'error', title: 'Message rejected', persistent: true })
    })
    const close = shown()[0]!.querySelector<HTMLElement>('button[aria-label="Close"]')!
    await act(async () => close.click())
    expect(shown()).toHaveLength(0)
  })
})
