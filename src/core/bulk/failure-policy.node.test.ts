import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { classifyGraphError, GraphError } from '../graph/errors.ts'
import {
  ASKED_THIS_WEEK,
  failureAction,
  marketingOf,
  marketingOfReason,
  marketingReason,
  planFailure,
} from './failure-policy.ts'

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../tests/fixtures/graph/${name}.json`, import.meta.url), 'utf8'),
  ) as { status: number; body: unknown }

/** What the senders do for a recorded error body of a recipient being sent. */
function onSend(name: string, attempts = 1) {
  const f = fixture(name)
  const err = classifyGraphError(f.body, f.status)
  return {
    action: failureAction(err.kind, true, attempts, marketingOf(err)),
    reason: marketingReason(marketingOf(err)),
  }
}

describe('failure policy of marketing messages', () => {
  it.each([
    ['marketing/error-2300000', 'inactive_campaign'],
    ['marketing/error-2300001', 'invalid_message'],
    ['marketing/error-2300002', 'inactive_message_set'],
    ['marketing/error-2300003', 'inactive_message'],
    ['marketing/error-2300005', 'page_mismatch'],
    ['marketing/error-2300015', 'budget_spent'],
    ['marketing/error-2300053', 'budget_spent'],
    ['marketing/error-2300054', 'daily_budget_reached'],
    ['marketing/error-10-1404170', 'optin_restricted'],
  ])('%s stops the job with the reason marketing:%s', (name, reason) => {
    expect(onSend(name)).toEqual({ action: 'stop', reason: `marketing:${reason}` })
  })

  it.each([
    ['marketing/error-2300004', 'marketing:invalid_token'],
    ['marketing/error-2300004-as-subcode', 'marketing:invalid_token'],
    ['marketing/error-2300034', 'marketing:subscriber_stopped'],
    ['marketing/error-2300037', 'marketing:token_expired'],
    ['marketing/error-10-1893015', 'marketing:subscriber_stopped'],
    ['marketing/error-4-2018354', 'marketing:frequency_limit'],
    ['marketing/error-9-2018352', 'marketing:optin_request_limit'],
    ['marketing/error-613-1893016', ASKED_THIS_WEEK],
  ])('%s refuses that recipient only (%s)', (name, reason) => {
    expect(onSend(name)).toEqual({ action: 'reject', reason })
  })

  it('refuses an opt-in request outside the window as any window refusal', () => {
    const f = fixture('error-10-2018278')
    const err = classifyGraphError(f.body, f.status)
    const optin = new GraphError({
      kind: err.kind,
      message: err.message,
      code: 10,
      subcode: 2018278,
      marketing: 'outside_window',
    })
    expect(failureAction(optin.kind, true, 1, optin.marketing)).toBe('reject')
    expect(marketingReason(optin.marketing)).toBeUndefined()
  })

  it('backs off when the network rate-limits marketing sends and retries when it asks to come back later', () => {
    expect(onSend('marketing/error-2300078').action).toBe('throttle')
    expect(onSend('marketing/error-2300055').action).toBe('retry')
  })

  it('changes nothing for a marketing recipient error outside a send', () => {
    const f = fixture('marketing/error-2300004')
    const err = classifyGraphError(f.body, f.status)
    expect(failureAction(err.kind, false, 0, marketingOf(err))).toBe('none')
  })

  it('keeps the rules of every other failure', () => {
    expect(failureAction('config', true, 1)).toBe('stop')
    expect(failureAction('outside_window', true, 1)).toBe('reject')
    expect(failureAction('auth', true, 1)).toBe('needs_token')
    expect(marketingReason(undefined)).toBeUndefined()
    expect(marketingOf(new Error('x'))).toBeUndefined()
  })

  it('reads the marketing name back from a stop reason', () => {
    expect(marketingOfReason('marketing:budget_spent')).toBe('budget_spent')
    expect(marketingOfReason('marketing:nonsense')).toBeUndefined()
    expect(marketingOfReason('config: bad')).toBeUndefined()
  })
})

describe('the failure plan both senders write to their stores', () => {
  const context = (over: Partial<Parameters<typeof planFailure>[1]> = {}) => ({
    sending: true,
    failures: 0,
    streak: () => 1,
    random: () => 0,
    pacingScale: 1,
    ...over,
  })

  it('stops with one reason format, the class then the network text', () => {
    const err = new GraphError({ kind: 'page_blocked', message: 'The page is blocked' })
    expect(planFailure(err, context())).toMatchObject({
      action: 'stop',
      recipient: 'pending',
      reason: 'page_blocked:The page is blocked',
    })
  })

  it('backs off after a recipient error outside a send, so a failing read never loops', () => {
    const err = new GraphError({ kind: 'outside_window', message: 'outside' })
    const plan = planFailure(err, context({ sending: false, streak: () => 3 }))
    expect(plan).toMatchObject({ action: 'none', recipient: 'none' })
    expect(plan.waitMs).toBe(4_000)
  })

  it('counts a transient failure on the recipient and rejects it past the bound', () => {
    const err = new GraphError({ kind: 'transient', message: 'try later' })
    expect(planFailure(err, context({ failures: 1 }))).toMatchObject({
      action: 'retry',
      recipient: 'pending',
      failures: 2,
    })
    expect(planFailure(err, context({ failures: 3 }))).toMatchObject({
      action: 'reject',
      recipient: 'reject',
      reason: 'try later',
    })
  })

  it('keeps an unanswered send uncertain while the job waits for the connection, unscaled', () => {
    const plan = planFailure(new TypeError('Failed to fetch'), context({ pacingScale: 0.01 }))
    expect(plan).toMatchObject({ action: 'uncertain', recipient: 'keep', state: 'waiting_connection' })
    expect(plan.waitMs).toBe(1_000)
  })
})
