/** The audience step when a failure stopped the loading: it says so and offers to go on (real Chromium). */
import { afterEach, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { messages } from '../../../locales/en/bulk.po'
import { AudienceStep } from './audience-step.tsx'

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  document.body.innerHTML = ''
})

function render(failed: boolean, onResume: () => void) {
  i18n.loadAndActivate({ locale: 'en', messages })
  const host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  act(() =>
    root!.render(
      <I18nProvider i18n={i18n}>
        <AudienceStep
          labels={['all_labels']}
          onToggle={() => undefined}
          loaded={3875}
          loading={false}
          onCancel={() => undefined}
          failed={failed}
          onResume={onResume}
          windowed={false}
          waiting={{ count: 0, included: false, onInclude: () => undefined }}
          groups={{ inside: 0, outside: 0, unknown: 0 } as never}
        />
      </I18nProvider>,
    ),
  )
}

it('says the loading stopped short, with how many were loaded, and goes on when asked', () => {
  const onResume = vi.fn()
  render(true, onResume)
  const alert = document.querySelector('[data-testid="bulk-loading-failed"]')!
  expect(alert.textContent).toContain('loading stopped before the last conversation')
  expect(alert.textContent).toContain('3,875')
  const button = [...alert.querySelectorAll('button')].find((b) => b.textContent === 'Go on loading')!
  act(() => button.click())
  expect(onResume).toHaveBeenCalledOnce()
})

it('says nothing of the kind when the list was loaded to its end', () => {
  render(false, () => undefined)
  expect(document.querySelector('[data-testid="bulk-loading-failed"]')).toBeNull()
})
