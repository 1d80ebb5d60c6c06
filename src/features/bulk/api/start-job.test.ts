/** Starting a job: a marketing send goes to the server from the start; an opt-in request job carries its title. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetDb } from '../../../device/testing/bulk-fakes.ts'
import { audienceOf, jobs } from '../../../device/bulk/records.ts'
import type { AudienceMember } from '../../../device/db/db.ts'
import { MarketingStartFailed, marketingRefusal, startBulkJob, type StartJobInput } from './start-job.ts'

const calls: { method: string; url: string; body: unknown }[] = []
let marketingAnswer: () => Response

beforeEach(async () => {
  await resetDb()
  calls.length = 0
  marketingAnswer = () => Response.json({ campaign_id: 'camp1', currency: 'MXN', estimate_minor: 170 })
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (method === 'POST' && url.endsWith('/api/v2/messages')) return Response.json({ id: 77 })
    if (url.endsWith('/messages/77/marketing')) return marketingAnswer()
    return Response.json({})
  })
})

afterEach(() => vi.restoreAllMocks())

const people = (ways: ('standard' | 'marketing')[]): AudienceMember[] =>
  ways.map((way, i) => ({ recipientId: String(i + 1), name: `P${i + 1}`, conversationId: `c${i + 1}`, way }))

const input = (over: Partial<StartJobInput> = {}): StartJobInput => ({
  pageId: 'P1',
  pageName: 'Tienda Sol',
  text: 'Hello',
  content: 'STANDARD',
  policy: 'current',
  labels: ['all_labels'],
  recipients: people(['standard', 'standard', 'marketing']),
  subscription: null,
  ...over,
})

const marketing = {
  budget: { kind: 'total' as const, minor: 5000 },
  currency: 'MXN',
  estimateMinor: 170,
  pageToken: 'PAGE-TOKEN',
}

describe('starting a bulk job', () => {
  it('hands a job with marketing recipients to the server with the budget once it has the recipient list', async () => {
    const { id, count } = await startBulkJob(input({ marketing }))
    expect([id, count]).toEqual(['77', 3])
    const order = calls.map((c) => `${c.method} ${new URL(c.url, location.origin).pathname}`)
    expect(order.indexOf('PUT /api/v2/messages/77/recipients')).toBeGreaterThan(-1)
    expect(order.indexOf('POST /api/v2/messages/77/marketing')).toBeGreaterThan(
      order.indexOf('PUT /api/v2/messages/77/recipients'),
    )
    expect(calls.find((c) => c.url.endsWith('/marketing'))!.body).toEqual({
      page_token: 'PAGE-TOKEN',
      budget: { kind: 'total', minor: 5000 },
      lease: 0,
    })
    const job = await jobs.get('77')
    expect(job?.state).toBe('on_server')
    expect(job?.keepSending).toBe(true)
    expect(job?.marketing).toEqual({
      budgetKind: 'total',
      budgetMinor: 5000,
      currency: 'MXN',
      estimateMinor: 170,
    })
    expect((await audienceOf('77')).map((m) => m.recipientId)).toEqual(['1', '2', '3'])
  })

  it('stops the job with the marketing reason when the server refuses the start, and says why', async () => {
    marketingAnswer = () =>
      Response.json(
        {
          error: {
            message: 'The ad account is in a region without marketing messages.',
            marketing: 'region_unsupported',
          },
        },
        { status: 422 },
      )
    const failed = await startBulkJob(input({ marketing })).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(MarketingStartFailed)
    expect((failed as MarketingStartFailed).code).toBe('region_unsupported')
    const job = await jobs.get('77')
    expect([job?.state, job?.stopReason]).toEqual(['stopped', 'marketing:region_unsupported'])
  })

  it('keeps a job without marketing recipients on the device, as before', async () => {
    await startBulkJob(input({ recipients: people(['standard', 'standard']), marketing }))
    expect(calls.some((c) => c.url.endsWith('/marketing'))).toBe(false)
    const job = await jobs.get('77')
    expect(job?.state).toBe('queued')
    expect(job?.marketing).toBeUndefined()
  })

  it('records an opt-in request job with its title on the server and on the device', async () => {
    await startBulkJob(
      input({
        text: '',
        recipients: people(['standard']),
        contentKind: 'optin_request',
        optinTitle: 'Weekly deals',
      }),
    )
    const created = calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/v2/messages'))!.body
    expect(created).toMatchObject({
      content_kind: 'optin_request',
      optin_title: 'Weekly deals',
      total_messages: 1,
    })
    const job = await jobs.get('77')
    expect([job?.contentKind, job?.optinTitle, job?.text]).toEqual([
      'optin_request',
      'Weekly deals',
      'Weekly deals',
    ])
  })

  it('records an update from a template as a utility job on the server and on the device', async () => {
    const utility = {
      name: 'workshop_reminder',
      language: 'en_US',
      body: 'Hi {{1}}, the workshop is on {{2}} at {{3}}.',
      params: ['{first name}', 'Saturday 10:00', 'Calle 5'],
    }
    await startBulkJob(
      input({
        text: '',
        recipients: people(['standard', 'standard']),
        contentKind: 'utility',
        utility,
        nameFallback: 'friend',
      }),
    )
    const created = calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/v2/messages'))!.body
    expect(created).toMatchObject({
      kind: 'utility',
      content_kind: 'utility',
      utility,
      message: 'Hi {first name}, the workshop is on Saturday 10:00 at Calle 5.',
      name_fallback: 'friend',
      tag: null,
      total_messages: 2,
    })
    const job = await jobs.get('77')
    expect([job?.kind, job?.contentKind, job?.utility, job?.nameFallback, job?.state]).toEqual([
      'utility',
      'utility',
      utility,
      'friend',
      'queued',
    ])
  })

  it('reads the marketing reason from the shapes a refusal may take', () => {
    expect(marketingRefusal({ code: 'marketing:budget_spent' })).toEqual({ code: 'budget_spent' })
    expect(
      marketingRefusal({ code: 'budget_too_small', errors: { 'budget.minor': ['budget_too_small'] } }),
    ).toEqual({ code: 'budget_too_small' })
    expect(marketingRefusal({ marketing: 'inactive_campaign', message: 'Paused' })).toEqual({
      code: 'inactive_campaign',
      message: 'Paused',
    })
    // The network's refusal is taken as it is: its class and its own words, never a cause guessed from a field.
    const permission = '(#200) Requires ads_management permission'
    expect(
      marketingRefusal({ code: 'network:config', message: permission, errors: { network: [permission] } }),
    ).toEqual({ code: 'network:config', message: permission })
    expect(marketingRefusal({ message: permission, errors: { budget: [permission] } })).toEqual({
      message: permission,
    })
    expect(marketingRefusal(undefined)).toEqual({})
  })
})
