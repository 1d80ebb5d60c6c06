/**
 * A job the server holds: its card follows the server's progress events from the live stream (the live
 * module writes them to the job's row, the bulk cards read the row), then shows its end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { messages } from '../../locales/en/bulk.po'
import { jobRecord, resetDb } from '../../device/testing/bulk-fakes.ts'
import { db } from '../../device/db/db.ts'
import { ProgressCard } from '../../features/bulk/components/progress-card.tsx'
import { useBulkJobs } from '../../features/bulk/model/use-bulk-jobs.ts'
import { dispatchLiveEvent } from '../../features/live/model/dispatch.ts'
import { parseLiveEvent } from '../../features/live/model/events.ts'

// The words of a marketing stop reason (the shared marketing error texts behind them are built elsewhere).
vi.mock('../../features/bulk/model/marketing-error.ts', () => ({
  marketingReasonText: (name: string) => ({ id: `test.${name}`, message: `Marketing error ${name}` }),
}))

let root: Root
let host: HTMLElement

function Cards() {
  const list = useBulkJobs()
  return (
    <ul>
      {list.map((j) => (
        <ProgressCard key={j.id} job={j} />
      ))}
    </ul>
  )
}

beforeEach(async () => {
  i18n.loadAndActivate({ locale: 'en', messages })
  await resetDb()
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  root.render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <Cards />
      </I18nProvider>
    </QueryClientProvider>,
  )
})

afterEach(() => {
  root.unmount()
  host.remove()
})

const text = (id: string) => host.querySelector(`[data-testid="${id}"]`)?.textContent

async function progress(over: Record<string, unknown>) {
  const event = parseLiveEvent(
    'bulk_progress',
    JSON.stringify({
      pageId: 'p1',
      messageId: 'j1',
      sent: 0,
      rejected: 0,
      skipped: 0,
      total: 10,
      state: 'running',
      sender: 'server',
      ...over,
    }),
    '7',
  )
  expect(event).toBeDefined()
  await dispatchLiveEvent(event!, {})
}

describe("a server-held job's card", () => {
  it("moves with the server's progress events and shows the server's end", async () => {
    await db.bulkJobs.put(jobRecord({ id: 'j1', state: 'on_server', total: 10, sent: 2, lease: 3 }))
    await expect.poll(() => text('bulk-card-summary')).toBe('Sending 2/10 messages')
    expect(text('bulk-card-state')).toBe('Sending on the server')

    await progress({ sent: 5, rejected: 1 })
    await expect.poll(() => text('bulk-card-summary')).toBe('Sending 5/10 messages')
    expect(text('bulk-card-state')).toBe('Sending on the server')
    expect(text('bulk-card-rejected')).toBe('1 rejected message')
    // An older event arriving late never moves the card back.
    await progress({ sent: 4 })
    await progress({ sent: 9, rejected: 1, state: 'finished' })
    await expect.poll(() => text('bulk-card-summary')).toBe('Successfully sent 9 messages, 1 rejected')
    expect(text('bulk-card-state')).toBe('Finished')
    // The lease is the device's business: the event never touches it.
    expect(await db.bulkJobs.get('j1')).toMatchObject({
      state: 'finished',
      sent: 9,
      rejected: 1,
      lease: 3,
      serverStateSynced: true,
    })
  })

  it('is left alone once the device has taken the job back', async () => {
    await db.bulkJobs.put(jobRecord({ id: 'j1', state: 'running', total: 10, sent: 2 }))
    await progress({ sent: 8, state: 'finished' })
    expect(await db.bulkJobs.get('j1')).toMatchObject({ state: 'running', sent: 2 })
  })

  it('shows a stop the server made, with its reason', async () => {
    await db.bulkJobs.put(jobRecord({ id: 'j1', state: 'on_server', total: 10 }))
    await progress({ sent: 3, skipped: 7, state: 'stopped', stopReason: 'no_messages' })
    await expect.poll(() => text('bulk-card-state')).toBe('Stopped: no messages left')
    expect(text('bulk-card-skipped')).toBe('7 skipped')
  })

  it('shows the standard and marketing counts and the spend live, then the marketing stop reason', async () => {
    const budget = { budgetKind: 'total' as const, budgetMinor: 5000, currency: 'MXN', estimateMinor: 3400 }
    await db.bulkJobs.put(jobRecord({ id: 'j1', state: 'on_server', total: 400, marketing: budget }))
    await expect.poll(() => text('bulk-card-spend')).toBe('Budget MX$50.00')
    const marketing = {
      sent: 38,
      spend_minor: 3230,
      currency: 'MXN',
      budget_kind: 'total',
      budget_minor: 5000,
      estimate_minor: 3400,
    }
    await progress({ sent: 348, total: 400, marketing })
    await expect.poll(() => text('bulk-card-ways')).toBe('310 standard · 38 marketing')
    expect(text('bulk-card-spend')).toBe('MX$32.30 spent of MX$50.00')
    // A late, older event never lowers the spend.
    await progress({ sent: 349, total: 400, marketing: { ...marketing, sent: 30, spend_minor: 2000 } })
    await progress({
      sent: 360,
      total: 400,
      state: 'stopped',
      stopReason: 'marketing:budget_spent',
      marketing: { ...marketing, sent: 50, spend_minor: 4990 },
    })
    await expect.poll(() => text('bulk-card-state')).toBe('Stopped: Marketing error budget_spent')
    expect(text('bulk-card-ways')).toBe('310 standard · 50 marketing')
    expect(text('bulk-card-spend')).toBe('MX$49.90 spent of MX$50.00')
  })
})
