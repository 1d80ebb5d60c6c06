/**
 * The wizard's audience groups, "Ask to subscribe", and the marketing budget, against a mocked API: what the
 * owner sees and what the start is given.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { messages } from '../../../locales/en/bulk.po'
import { DEFAULT_OPTIN_TITLE } from '../../../core/contracts/marketing.ts'
import { dismissAll, notificationStore } from '../../../shared/notifications/store.ts'
import { closeAllModals, modalStack } from '../../../shared/ui/modal-stack.ts'
import type * as Config from '../../../shared/config'
import type * as Session from '../../../shared/session'
import type * as SessionActions from '../../../shared/session/actions.ts'
import type * as StartJob from '../api/start-job.ts'
import type { StartJobInput } from '../api/start-job.ts'
import { BulkWizard } from './bulk-wizard.tsx'

vi.mock('../../../shared/config', async (original) => ({
  ...(await original<typeof Config>()),
  useClientConfig: () => ({ messagingPolicy: 'current', graphUrl: '', graphVersion: 'v1' }),
}))
vi.mock('../api/use-available.ts', () => ({ useAvailablePoll: () => undefined }))
/** Seven customers: 1–3 inside the window (3 subscribed), 4 and 5 subscribed outside, 6 outside, 7 unknown. */
vi.mock('../api/use-audience.ts', () => {
  const at = (h: number | undefined) => (h === undefined ? undefined : Date.now() - h * 3_600_000)
  const hours = [1, 2, 3, 30, 40, 50, undefined]
  return {
    useAudience: () => ({
      customers: hours.map((h, i) => ({
        recipientId: String(i + 1),
        name: `Person ${i + 1}`,
        conversationId: `c${i + 1}`,
        lastCustomerMessageAt: at(h),
      })),
      loading: false,
      at: Date.now(),
      cancel: () => undefined,
    }),
  }
})
// The marketing reason texts (the shared marketing error texts behind them are built elsewhere): a stand-in.
vi.mock('../model/marketing-error.ts', () => ({
  marketingReasonText: (name: string) => ({ id: `test.${name}`, message: `Marketing error ${name}` }),
}))
const started: StartJobInput[] = []
const startResult = { fail: undefined as undefined | string, text: undefined as undefined | string }
vi.mock('../api/start-job.ts', async (original) => {
  const real = await original<typeof StartJob>()
  return {
    ...real,
    startBulkJob: async (input: StartJobInput) => {
      started.push(input)
      if (startResult.fail) throw new real.MarketingStartFailed(startResult.fail, startResult.text)
      return { id: 'job1', count: input.recipients.length }
    },
  }
})

// The login's marketing permissions, and the incremental login that asks for them.
const grants = { held: true, asked: 0, allow: true }
vi.mock('../../../shared/session', async (original) => {
  const real = await original<typeof Session>()
  return {
    ...real,
    hasPermissions: () => grants.held,
    requestExtraPermissions: async (scopes: readonly string[]) => {
      grants.asked++
      return grants.allow
        ? { granted: true, userToken: 'USER' }
        : { granted: false, reason: 'declined', missing: [...scopes] }
    },
  }
})

// The utility templates' piece reads the login's grants from the session's actions module itself.
vi.mock('../../../shared/session/actions.ts', async (original) => ({
  ...(await original<typeof SessionActions>()),
  hasPermissions: () => grants.held,
}))

let marketingOn = true
const calls: string[] = []
function api() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input)
    calls.push(url)
    if (url.endsWith('/pages/P1/marketing'))
      return Response.json({
        enabled: marketingOn,
        ad_account: marketingOn ? { id: 'act_1', name: 'Tienda Sol Ads', currency: 'MXN' } : null,
        country: 'MX',
        available: true,
        subscribers: { active: 3, stopped: 0 },
        tokens_synced_at: null,
        optin_title_default: 'Updates and promotions',
      })
    if (url.endsWith('/marketing/subscribers')) return Response.json({ psids: ['3', '4', '5'] })
    if (url.includes('/P1/message_templates')) return Response.json({ data: TEMPLATES })
    if (url.includes('/marketing/estimate?count=2'))
      return Response.json({ currency: 'MXN', per_message_minor: 85, estimate_minor: 170 })
    if (url.endsWith('/optin-requests/check'))
      return Response.json({
        allowed: ['1'],
        refused: [
          { psid: '2', reason: 'asked_this_week' },
          { psid: '3', reason: 'subscribed' },
        ],
      })
    return Response.json({}, { status: 404 })
  })
}

/** The page's utility templates: one approved event reminder, one still in review. */
const TEMPLATES = [
  {
    id: 'T1',
    name: 'workshop_reminder',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      {
        type: 'BODY',
        text: 'Hi {{1}}, the workshop is on {{2}} at {{3}}.',
        example: { body_text: [['Ana', 'May 3', 'Calle 5']] },
      },
    ],
  },
  {
    id: 'T2',
    name: 'pickup_ready',
    language: 'en_US',
    status: 'PENDING',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hi {{1}}, your order is ready.' }],
  },
]

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
let root: Root
let host: HTMLElement

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages })
  marketingOn = true
  Object.assign(grants, { held: true, asked: 0, allow: true })
  started.length = 0
  calls.length = 0
  startResult.fail = undefined
  startResult.text = undefined
  api()
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const queries = new QueryClient()
  act(() =>
    root.render(
      <QueryClientProvider client={queries}>
        <I18nProvider i18n={i18n}>
          <BulkWizard pageId="P1" pageName="Tienda Sol" pageToken="PAGE-TOKEN" onClose={() => undefined} />
        </I18nProvider>
      </QueryClientProvider>,
    ),
  )
})

afterEach(() => {
  act(() => root.unmount())
  host.remove()
  vi.restoreAllMocks()
  closeAllModals()
  dismissAll()
})

const q = (id: string) => host.querySelector<HTMLElement>(`[data-testid="${id}"]`)
const text = (id: string) => q(id)?.textContent ?? ''

async function until(check: () => boolean, what: string, tries = 100) {
  for (let i = 0; i < tries && !check(); i++) await act(() => new Promise((r) => setTimeout(r, 20)))
  if (!check()) throw new Error(`never: ${what}`)
}

function click(el: Element | null | undefined) {
  act(() => (el as HTMLElement).click())
}

function type(el: HTMLInputElement | HTMLTextAreaElement | null, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value)
    el!.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

const stepButton = (n: number) => q(`bulk-step-${n}`)!.querySelector('button')

async function toStep3() {
  click(stepButton(2))
  click(stepButton(3))
  await until(() => !!q('bulk-send'), 'step 3 open')
}

describe('the bulk wizard with marketing messages', () => {
  it('shows the three groups with counts and why the rest are out of reach', async () => {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    expect(text('bulk-window')).toBe('3')
    expect(text('bulk-group-standard')).toContain('Wrote to the page in the last 23 hours (free)')
    expect(text('bulk-group-marketing')).toBe(
      'Subscribers who have not written in 23 hours (paid marketing message)2',
    )
    expect(text('bulk-group-none')).toContain('The rest (unreachable)2')
    expect(text('bulk-why-not_subscribed')).toBe('1: no recent message and not subscribed')
    expect(text('bulk-why-no_customer_message')).toBe('1: no message from them yet')
  })

  it('with marketing off, counts the subscribers as unreachable and offers to turn marketing on', async () => {
    act(() => root.unmount())
    marketingOn = false
    root = createRoot(host)
    act(() =>
      root.render(
        <QueryClientProvider client={new QueryClient()}>
          <I18nProvider i18n={i18n}>
            <BulkWizard pageId="P1" pageName="Tienda Sol" pageToken="PAGE-TOKEN" onClose={() => undefined} />
          </I18nProvider>
        </QueryClientProvider>,
      ),
    )
    await until(() => !!q('bulk-marketing-turn-on'), 'the turn-on offer')
    await until(() => !!q('bulk-why-marketing_off'), 'subscribers counted')
    expect(text('bulk-why-marketing_off')).toBe('2: subscribed, but marketing messages are off for this page')
    expect(q('bulk-group-marketing')!.querySelector('input')!.disabled).toBe(true)
    click(q('bulk-marketing-turn-on'))
    expect(modalStack.getState()).toContain('marketing')
    // No "Ask to subscribe" without marketing messages.
    click(stepButton(2))
    expect(q('bulk-optin')).toBeNull()
  })

  it('asks for a budget, shows the estimate and the summary, and starts with each way and the budget', async () => {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    await toStep3()
    type(q('bulk-text') as HTMLTextAreaElement, 'Hello')
    await until(() => text('bulk-estimate') === 'About MX$1.70 for 2 messages', 'the estimate')
    expect(text('bulk-summary-standard')).toBe('Free standard messages: 3')
    expect(text('bulk-summary-marketing')).toBe('Paid marketing messages: 2 (about MX$1.70)')
    expect(text('bulk-summary-spent')).toBe('Pagecast messages spent: 5')

    click(q('bulk-send'))
    expect(started).toHaveLength(0)
    expect(text('bulk-budget-error')).toBe('Enter a budget for the marketing messages.')
    type(q('bulk-budget-amount') as HTMLInputElement, '0')
    expect(text('bulk-budget-error')).toBe('The budget must be more than zero.')
    click(q('bulk-send'))
    expect(started).toHaveLength(0)

    type(q('bulk-budget-amount') as HTMLInputElement, '1')
    expect(text('bulk-budget-warning')).toContain('The budget is below the estimate')
    type(q('bulk-budget-amount') as HTMLInputElement, '50')
    expect(q('bulk-budget-warning')).toBeNull()
    await act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(started).toHaveLength(1)
    const input = started[0]!
    // Inside the window, whose window closes soonest first: 3 wrote 3 hours ago, 1 an hour ago.
    expect(input.recipients.map((r) => [r.recipientId, r.way])).toEqual([
      ['3', 'standard'],
      ['2', 'standard'],
      ['1', 'standard'],
      ['4', 'marketing'],
      ['5', 'marketing'],
    ])
    expect(input.marketing).toEqual({
      budget: { kind: 'total', minor: 5000 },
      currency: 'MXN',
      estimateMinor: 170,
      pageToken: 'PAGE-TOKEN',
    })
    expect(input.contentKind).toBeUndefined()
  })

  it('leaves the subscribers out when the owner unticks them: no budget, a plain send', async () => {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    click(q('bulk-group-marketing')!.querySelector('input'))
    await toStep3()
    expect(q('bulk-budget')).toBeNull()
    type(q('bulk-text') as HTMLTextAreaElement, 'Hello')
    await act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(started[0]!.recipients.map((r) => r.way)).toEqual(['standard', 'standard', 'standard'])
    expect(started[0]!.marketing).toBeUndefined()
  })

  it('asks to subscribe only inside the window, leaving out those asked this week or subscribed', async () => {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    click(stepButton(2))
    click(q('bulk-optin'))
    expect((q('bulk-optin-title') as HTMLInputElement).value).toBe(DEFAULT_OPTIN_TITLE)
    expect((q('bulk-optin-title') as HTMLInputElement).maxLength).toBe(65)
    await until(() => text('bulk-optin-check').startsWith('1 will'), 'the check')
    expect(text('bulk-optin-check')).toBe(
      '1 will be asked. Left out: 1 asked this week, 1 already subscribed.',
    )
    expect(q('bulk-group-marketing')!.querySelector('input')!.disabled).toBe(true)
    type(q('bulk-optin-title') as HTMLInputElement, 'Weekly deals')
    await until(() => text('bulk-optin-check').startsWith('1 will'), 'the check with the new title')
    click(stepButton(3))
    expect(q('bulk-text')).toBeNull()
    expect(q('bulk-budget')).toBeNull()
    await act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(started).toHaveLength(1)
    expect(started[0]!.contentKind).toBe('optin_request')
    expect(started[0]!.optinTitle).toBe('Weekly deals')
    expect(started[0]!.recipients.map((r) => [r.recipientId, r.way])).toEqual([['1', 'standard']])
    expect(started[0]!.marketing).toBeUndefined()
    expect(calls.filter((c) => c.endsWith('/optin-requests/check')).length).toBeGreaterThanOrEqual(2)
  })

  const clickSend = () =>
    act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
  /** Step 3 with a text and a budget of 50, then Send. */
  async function sendWithBudget() {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    await toStep3()
    type(q('bulk-text') as HTMLTextAreaElement, 'Hello')
    type(q('bulk-budget-amount') as HTMLInputElement, '50')
    await clickSend()
  }

  it('asks for the marketing permissions the login lacks before the send, and sends nothing without them', async () => {
    grants.held = false
    grants.allow = false
    await sendWithBudget()
    expect(grants.asked).toBe(1)
    expect(started).toHaveLength(0)
    const shown = notificationStore.getState().map((n) => `${n.title}: ${n.message}`)
    expect(shown).toContain(
      'The marketing send did not start: Marketing messages need the permission to manage your ads. Nothing was sent: send again and allow it.',
    )
    grants.allow = true
    await clickSend()
    expect(grants.asked).toBe(2)
    expect(started).toHaveLength(1)
  })

  it("shows the network's refusal by its class with the network's own words, never a guessed cause", async () => {
    startResult.fail = 'network:config'
    startResult.text = '(#200) Requires ads_management permission'
    await sendWithBudget()
    const shown = notificationStore.getState().map((n) => [n.title, n.message, n.detail])
    expect(shown).toContainEqual([
      'The marketing send did not start',
      'Facebook refused this message.',
      '(#200) Requires ads_management permission',
    ])
  })

  it("shows the server's reason when the marketing part could not start", async () => {
    startResult.fail = 'inactive_campaign'
    await sendWithBudget()
    const shown = notificationStore.getState().map((n) => `${n.title}: ${n.message}`)
    expect(shown).toContain('The marketing send did not start: Marketing error inactive_campaign')
  })
})

describe('the bulk wizard with an update from a template', () => {
  it('sends an approved template to everyone chosen, outside the window too, with the values typed once', async () => {
    await until(() => /\)2$/.test(text('bulk-group-marketing')), 'subscribers counted')
    click(stepButton(2))
    // A retired tag points to the update, and choosing it there selects it.
    click(q('tag-successor-use'))
    expect((q('bulk-utility-option') as HTMLInputElement).checked).toBe(true)
    await until(() => !!q('bulk-utility'), 'the piece, loaded when chosen', 1000)
    await until(() => !!q('page-template-workshop_reminder'), 'the approved template' + text('bulk-utility'))
    expect(q('page-template-pickup_ready')).toBeNull()
    expect(text('bulk-utility-reach')).toBe(
      '7 chosen customers can get this update: 3 who wrote in the last 23 hours and 4 outside that window.',
    )
    expect(text('bulk-groups-utility')).toBe(
      'An update from a template goes to all 7 chosen customers, inside the 24-hour window or not.',
    )
    click(q('page-template-workshop_reminder'))
    expect((q('template-param-1') as HTMLInputElement).value).toBe('{first name}')
    type(q('template-param-2') as HTMLInputElement, 'Saturday 10:00')
    // Not sent while a placeholder is empty.
    click(stepButton(3))
    expect(q('bulk-text')).toBeNull()
    expect(q('bulk-later')).toBeNull()
    await act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(started).toHaveLength(0)
    expect(notificationStore.getState().map((n) => n.message)).toContain(
      'Choose a template and fill in its placeholders.',
    )
    type(q('template-param-3') as HTMLInputElement, 'Calle 5')
    expect(text('template-preview')).toBe('Hi Person, the workshop is on Saturday 10:00 at Calle 5.')
    await act(async () => {
      q('bulk-send')!.click()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(started).toHaveLength(1)
    expect(started[0]!.contentKind).toBe('utility')
    expect(started[0]!.utility).toEqual({
      name: 'workshop_reminder',
      language: 'en_US',
      body: 'Hi {{1}}, the workshop is on {{2}} at {{3}}.',
      params: ['{first name}', 'Saturday 10:00', 'Calle 5'],
    })
    expect(started[0]!.recipients.map((r) => [r.recipientId, r.way])).toEqual(
      ['1', '2', '3', '4', '5', '6', '7'].map((id) => [id, 'standard']),
    )
    expect(started[0]!.marketing).toBeUndefined()
  })
})
