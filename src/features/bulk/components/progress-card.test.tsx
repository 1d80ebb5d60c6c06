import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { messages } from '../../../locales/en/bulk.po'
import { NO_PAGE_TOKEN } from '../../../device/bulk/protocol.ts'
import { jobs } from '../../../device/bulk/records.ts'
import { PAGE, resetDb, seedJob } from '../../../device/testing/bulk-fakes.ts'
import { sessionStore } from '../../../shared/session'
import type { Account } from '../../../core/graph/types.ts'
import type { CardJob } from '../model/card.ts'
import { ProgressCard } from './progress-card.tsx'

// The marketing reason texts (the shared marketing error texts behind them are built elsewhere): a local
// stand-in with the same shape, a lingui descriptor per name.
vi.mock('../model/marketing-error.ts', () => ({
  marketingReasonText: (name: string) =>
    name === 'inactive_campaign'
      ? { id: 'test.inactive', message: 'The campaign is paused or inactive.' }
      : { id: 'test.other', message: `Marketing error ${name}` },
}))

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
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider i18n={i18n}>
          <ProgressCard job={j} />
        </I18nProvider>
      </QueryClientProvider>,
    ),
  )
}

const text = (id: string) => host.querySelector(`[data-testid="${id}"]`)?.textContent

describe('a bulk progress card', () => {
  it('shows the sending count, the rejected count and a capped bar', () => {
    render(job({ sent: 12, rejected: 1, total: 10 }))
    expect(text('bulk-card-summary')).toBe('Sending 12/10 messages')
    expect(text('bulk-card-rejected')).toBe('1 rejected message')
    expect(host.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('100')
  })

  it('says one message and one rejection in the singular', () => {
    render(job({ state: 'finished', sent: 1, rejected: 1, total: 2 }))
    expect(text('bulk-card-summary')).toBe('Successfully sent 1 message, 1 rejected')
    expect(text('bulk-card-rejected')).toBe('1 rejected message')
  })

  it('never shows the success words for a job that stopped, even one that never started', () => {
    render(job({ state: 'stopped', sent: 0, rejected: 0, total: 5, stopReason: 'marketing:start_failed' }))
    expect(text('bulk-card-summary')).toBe('Stopped: 0 of 5 messages sent, 0 rejected')
    render(job({ state: 'stopped', sent: 3, rejected: 1, total: 10, stopReason: 'cancelled' }))
    expect(text('bulk-card-summary')).toBe('Stopped: 3 of 10 messages sent, 1 rejected')
  })

  it("says a network refusal by its class with the network's own words beside it, never a guessed cause", () => {
    render(
      job({
        state: 'stopped',
        sent: 0,
        rejected: 0,
        total: 5,
        stopReason: 'marketing:network:config:(#200) Requires ads_management permission',
      }),
    )
    expect(text('bulk-card-summary')).toBe('Stopped: 0 of 5 messages sent, 0 rejected')
    expect(text('bulk-card-marketing-stop')).toBe(
      'Stopped: Facebook refused this message. (#200) Requires ads_management permission',
    )
    const quoted = host.querySelector('[data-testid="bulk-card-network-text"]')
    expect(quoted?.tagName).toBe('BDI')
    expect(quoted?.textContent).toBe('(#200) Requires ads_management permission')
    expect(host.textContent).not.toMatch(/budget is too small|Successfully sent/)
  })

  it('resumes a paused marketing job only through the server, never on this device', () => {
    render(job({ state: 'paused', kind: 'marketing', stopReason: 'resumed_from_server' }))
    expect(host.querySelector('[data-testid="bulk-card-resume-marketing"]')).not.toBeNull()
    const buttons = [...host.querySelectorAll('button')].map((b) => b.textContent)
    expect(buttons.filter((b) => b === 'Resume')).toHaveLength(1)
    render(job({ state: 'paused', stopReason: 'resumed_from_server' }))
    expect(host.querySelector('[data-testid="bulk-card-resume-marketing"]')).toBeNull()
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

  it('splits the sent messages into standard and marketing and shows the spend of the budget', () => {
    const marketing = { sent: 38, spendMinor: 3230, budgetMinor: 5000, currency: 'MXN' }
    render(job({ state: 'on_server', sent: 348, total: 400, marketing }))
    expect(text('bulk-card-ways')).toBe('310 standard · 38 marketing')
    expect(text('bulk-card-spend')).toBe('MX$32.30 spent of MX$50.00')
    render(
      job({
        state: 'on_server',
        sent: 10,
        total: 400,
        marketing: { ...marketing, sent: 0, spendMinor: null },
      }),
    )
    expect(text('bulk-card-ways')).toBe('10 standard · 0 marketing')
    expect(text('bulk-card-spend')).toBe('Budget MX$50.00')
  })

  it('shows no marketing line for a job without marketing messages', () => {
    render(job())
    expect(host.querySelector('[data-testid="bulk-card-ways"]')).toBeNull()
  })

  it("says in words why a marketing job stopped, without the error's name", () => {
    render(job({ state: 'stopped', stopReason: 'marketing:inactive_campaign' }))
    expect(text('bulk-card-state')).toBe('Stopped: The campaign is paused or inactive.')
    render(job({ state: 'stopped', stopReason: 'marketing:budget_spent' }))
    expect(text('bulk-card-state')).toBe('Stopped: Marketing error budget_spent')
  })

  describe('a job stopped for a marketing reason', () => {
    const marketing = { budgetKind: 'total' as const, budgetMinor: 5000, currency: 'MXN', estimateMinor: 850 }
    const card = { marketing: { sent: 4, spendMinor: 340, budgetMinor: 5000, currency: 'MXN' } }
    const resumeButton = () =>
      host.querySelector<HTMLButtonElement>('[data-testid="bulk-card-resume-marketing"]')
    let calls: { url: string; body: unknown }[]

    function answerWith(status: number, body: unknown) {
      calls = []
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
        calls.push({ url: String(input), body: JSON.parse(String(init?.body ?? 'null')) })
        return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
      })
    }

    beforeEach(() => {
      sessionStore.reset({
        status: 'logged_in',
        accounts: [{ id: PAGE, name: 'Page', access_token: 'page-token' } as Account],
      })
    })
    afterEach(() => {
      vi.restoreAllMocks()
      sessionStore.reset({ status: 'logged_out', accounts: [] })
    })

    it('offers Resume only when the stop reason is a marketing one', () => {
      render(job({ state: 'stopped', stopReason: 'marketing:inactive_campaign', ...card }))
      expect(resumeButton()).not.toBeNull()
      render(job({ state: 'stopped', stopReason: 'cancelled', ...card }))
      expect(resumeButton()).toBeNull()
      render(job({ state: 'on_server', ...card }))
      expect(resumeButton()).toBeNull()
      render(job({ state: 'finished', ...card }))
      expect(resumeButton()).toBeNull()
    })

    it('says a spent budget is raised in the ad account before resuming', () => {
      render(job({ state: 'stopped', stopReason: 'marketing:budget_spent', ...card }))
      expect(text('bulk-card-marketing-resume')).toContain('Raise the campaign')
      render(job({ state: 'stopped', stopReason: 'marketing:daily_budget_reached', ...card }))
      expect(text('bulk-card-marketing-resume')).toContain('resume tomorrow')
    })

    it('posts the job to the marketing route again and hands it to the server', async () => {
      await seedJob(3, {
        state: 'stopped',
        stopReason: 'marketing:inactive_campaign',
        marketing,
        serverLease: 1,
        skipped: 2,
      })
      answerWith(200, {
        id: 'job1',
        lease: 3,
        sender: 'server',
        campaign_id: 'c1',
        currency: 'MXN',
        estimate_minor: 850,
      })
      render(job({ state: 'stopped', stopReason: 'marketing:inactive_campaign', ...card }))
      await act(async () => {
        resumeButton()!.click()
        await new Promise((r) => setTimeout(r, 50))
      })
      expect(calls).toHaveLength(1)
      expect(calls[0]!.url).toMatch(/\/api\/v2\/messages\/job1\/marketing$/)
      expect(calls[0]!.body).toEqual({
        page_token: 'page-token',
        budget: { kind: 'total', minor: 5000 },
        lease: 1,
      })
      const stored = await jobs.get('job1')
      expect(stored).toMatchObject({ state: 'on_server', serverLease: 3, skipped: 0 })
      expect(stored?.stopReason).toBeUndefined()
      expect(host.querySelector('[data-testid="bulk-card-resume-error"]')).toBeNull()
    })

    it("shows the server's refusal in words and keeps the job stopped", async () => {
      await seedJob(3, { state: 'stopped', stopReason: 'marketing:inactive_campaign', marketing })
      answerWith(409, { message: 'The network refused the campaign.', code: 'marketing:inactive_campaign' })
      render(job({ state: 'stopped', stopReason: 'marketing:inactive_campaign', ...card }))
      await act(async () => {
        resumeButton()!.click()
        await new Promise((r) => setTimeout(r, 50))
      })
      expect(text('bulk-card-resume-error')).toBe('The campaign is paused or inactive.')
      expect((await jobs.get('job1'))?.state).toBe('stopped')
    })
  })
})
