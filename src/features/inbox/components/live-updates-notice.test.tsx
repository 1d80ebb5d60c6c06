import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LiveUpdatesNotice } from './live-updates-notice.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root
let host: HTMLDivElement

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  host = document.createElement('div')
  // A phone's width.
  host.style.width = '360px'
  document.body.append(host)
  root = createRoot(host)
  act(() =>
    root.render(
      <I18nProvider i18n={i18n}>
        <LiveUpdatesNotice />
      </I18nProvider>,
    ),
  )
})

afterEach(() => {
  act(() => root.unmount())
  host.remove()
})

describe('the live updates notice', () => {
  it('says, as a status that does not interrupt, that new messages need a reload; it fits a phone', () => {
    const notice = host.querySelector('[data-testid="live-updates-notice"]')!
    expect(notice.getAttribute('role')).toBe('status')
    expect(notice.textContent).toBe(
      'Live updates are off for this page: new messages appear when you reload.',
    )
    const box = notice.getBoundingClientRect()
    expect(box.width).toBeLessThanOrEqual(360)
    expect(notice.scrollWidth).toBeLessThanOrEqual(notice.clientWidth)
  })
})
