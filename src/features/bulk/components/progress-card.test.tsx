import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { messages } from '../../../locales/en/bulk.po'
import { NO_PAGE_TOKEN } from '../../../shared/bulk/protocol.ts'
import { jobs } from '../../../shared/bulk/records.ts'
import { resetDb, seedJob } from '../../../shared/bulk/fakes.test-kit.ts'
import type { CardJob } from '../model/card.ts'
import { ProgressCard } from './progress-card.tsx'

// React's act() needs to know it runs in a test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root
let host: HTMLElement

beforeEach(async () => {
  i18n.loadAndActivate({ locale: 'en', messages })
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await resetDb()
})

afterEach(() => {
  act(() => root.unmount())
  host.remove()
})

const job = (over: Partial<CardJob> = {}): CardJob => ({
  id: 'job1',
  pageName: 'Page',
  text: 'Hello',
  state: 'running',
  createdAt: 0,
  sent: 3,
  rejected: 1,
  skipped: 0,
  total: 10,
  ...over,
})

function render(j: CardJob) {
  act(() =>
    root.render(
      <I18nProvider i18n={i18n}>
        <ProgressCard job={j} />
      </I18nProvider>,
    ),
  )
}

const text = (id: string) => host.querySelector(`[data-testid="${id}"]`)?.textContent

describe('a bulk progress card', () => {
  it('shows the sending count, the rejected count and a capped bar', () => {
    render(job({ sent: 12, rejected: 1, total: 10 }))
    expect(text('bulk-card-summary')).toBe('Sending 12/10 messages')
    expect(text('bulk-card-rejected')).toBe('1 rejected messages')
    expect(host.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('100')
  })

  it('shows the success summary once finished', () => {
    render(job({ state: 'finished', sent: 9, rejected: 1 }))
    expect(text('bulk-card-summary')).toBe('Successfully sent 9 messages, 1 rejected')
    expect(text('bulk-card-state')).toBe('Finished')
  })

  it('says why a job stopped', () => {
    render(job({ state: 'stopped', stopReason: 'no_messages' }))
    expect(text('bulk-card-state')).toBe('Stopped: no messages left')
    render(job({ state: 'waiting_connection' }))
    expect(text('bulk-card-state')).toBe('Waiting for connection')
  })

  it('asks the owner to reconnect a page listed without a token', () => {
    render(job({ state: 'needs_signin', stopReason: NO_PAGE_TOKEN }))
    expect(text('bulk-card-state')).toBe('Reconnect this page to continue')
    render(job({ state: 'needs_signin' }))
    expect(text('bulk-card-state')).toBe('Needs sign-in')
  })

  it('pauses the job in storage when Pause is pressed', async () => {
    await seedJob(3, { state: 'running' })
    render(job())
    const pause = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Pause')!
    await act(async () => {
      pause.click()
      await new Promise((r) => setTimeout(r, 50))
    })
    expect((await jobs.get('job1'))?.state).toBe('paused')
  })
})
