import { describe, expect, it } from 'vitest'
import { act } from 'react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { messages as en } from '../../../locales/en/bulk.po'
import { messages as es } from '../../../locales/es/bulk.po'
import type { AudiencePlan } from '../../../core/bulk/allowance.ts'
import { ComposeStep } from './compose-step.tsx'
import { reactRootPerTest } from '../../../shared/testing/react-root.ts'

const t = reactRootPerTest()

function render(plan: AudiencePlan, locale = 'en') {
  i18n.loadAndActivate({
    locale,
    locales: [locale === 'es' ? 'es-MX' : locale],
    messages: locale === 'es' ? es : en,
  })
  act(() =>
    t.root.render(
      <I18nProvider i18n={i18n}>
        <ComposeStep
          text="Hello"
          onText={() => undefined}
          onImage={() => undefined}
          plan={plan}
          subscription={null}
          busy={false}
          onSend={() => undefined}
          keepSending={false}
          onKeepSending={() => undefined}
          onLater={() => undefined}
        />
      </I18nProvider>,
    ),
  )
}

const send = () => t.host.querySelector<HTMLButtonElement>('[data-testid="bulk-send"]')!
const plan = (count: number, more: Partial<AudiencePlan> = {}): AudiencePlan => ({
  count,
  brandedFrom: -1,
  refused: false,
  truncated: false,
  ...more,
})

describe('the send button of step 3', () => {
  it('says one recipient in the singular, and the duration of one message', () => {
    render(plan(1))
    expect(send().textContent).toBe('Send to 1 recipient')
    expect(t.host.querySelector('[data-testid="bulk-duration"]')?.textContent).toBe(
      "About a minute at Messenger's pace.",
    )
  })

  it('says there are no messages left instead of a send to nobody, and still gives the warning when pressed', () => {
    render(plan(0, { refused: true }))
    expect(send().textContent).toBe('No messages left: buy more')
    expect(send().disabled).toBe(false)
  })

  it('has nothing to send without recipients', () => {
    render(plan(0))
    expect(send().textContent).toBe('Nothing to send')
    expect(send().disabled).toBe(true)
  })

  it('writes counts in the Mexican style in Spanish, plural agreeing', () => {
    render(plan(1225, { truncated: true }), 'es')
    expect(send().textContent).toBe('Enviar a 1,225 destinatarios')
    expect(t.host.querySelector('[data-testid="bulk-truncated"]')?.textContent).toBe(
      'Este mensaje se mandará solo a 1,225 clientes',
    )
  })
})
