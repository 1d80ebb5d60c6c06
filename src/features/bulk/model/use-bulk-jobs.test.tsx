import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { db } from '../../../device/db/db.ts'
import { jobs } from '../../../device/bulk/records.ts'
import { jobRecord, resetDb } from '../../../device/testing/bulk-fakes.ts'
import { ProgressCard } from '../components/progress-card.tsx'
import { useBulkJobs } from './use-bulk-jobs.ts'

// The words of a marketing stop reason (the shared marketing error texts behind them are built elsewhere).
vi.mock('./marketing-error.ts', () => ({
  marketingReasonText: (name: string) => ({ id: `test.${name}`, message: `Marketing error ${name}` }),
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root
let host: HTMLElement

beforeEach(async () => {
  await Promise.all([resetDb(), db.bulkReceipts.clear()])
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
})
afterEach(() => {
  act(() => root.unmount())
  host.remove()
})

function Cards() {
  return (
    <ul>
      {useBulkJobs().map((job) => (
        <ProgressCard key={job.id} job={job} />
      ))}
    </ul>
  )
}

const text = (id: string) => host.querySelector(`[data-testid="${id}"]`)?.textContent ?? null

describe('the bulk cards and the receipts of their messages', () => {
  it('show delivered and read counts once the network reported them, and follow later reports', async () => {
    await jobs.put(jobRecord({ id: 'job1', state: 'finished', sent: 8, total: 8 }))
    await act(async () => {
      root.render(
        <QueryClientProvider client={new QueryClient()}>
          <I18nProvider i18n={i18n}>
            <Cards />
          </I18nProvider>
        </QueryClientProvider>,
      )
    })
    await expect.poll(() => text('bulk-card-summary')).toContain('Successfully sent 8')
    expect(text('bulk-card-delivered')).toBeNull()
    await act(async () => {
      await db.bulkReceipts.put({ id: 'job1', pageId: 'p1', delivered: 5, read: 2 })
    })
    await expect
      .poll(() => [text('bulk-card-delivered'), text('bulk-card-read')])
      .toEqual(['5 delivered', '2 read'])
    await act(async () => {
      await db.bulkReceipts.put({ id: 'job1', pageId: 'p1', delivered: 7, read: 6 })
    })
    await expect
      .poll(() => [text('bulk-card-delivered'), text('bulk-card-read')])
      .toEqual(['7 delivered', '6 read'])
  })
})
