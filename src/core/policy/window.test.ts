import { describe, expect, it } from 'vitest'
import { BULK_SAFETY_WINDOW_MS, HOUR_MS, windowStatus } from './window.ts'

const now = Date.UTC(2026, 10, 22, 12)
const current = { policy: 'current' as const, humanAgentEnabled: false }
const withAgent = { policy: 'current' as const, humanAgentEnabled: true }

describe('windowStatus', () => {
  it('sends as RESPONSE within 24 hours of the customer’s last message', () => {
    const s = windowStatus(now - 23 * HOUR_MS, now, current)
    expect(s).toEqual({
      canSend: true,
      messagingType: 'RESPONSE',
      reason: 'standard',
      closesAt: now + HOUR_MS,
    })
  })

  it('closes the standard window at exactly 24 hours', () => {
    expect(windowStatus(now - 24 * HOUR_MS, now, current)).toEqual({
      canSend: false,
      reason: 'needs_human_agent',
    })
  })

  it('sends as HUMAN_AGENT between 24 hours and 7 days only when the permission is enabled', () => {
    const s = windowStatus(now - 3 * 24 * HOUR_MS, now, withAgent)
    expect(s.canSend).toBe(true)
    expect(s.messagingType).toBe('MESSAGE_TAG')
    expect(s.tag).toBe('HUMAN_AGENT')
    expect(s.reason).toBe('human_agent')
    expect(windowStatus(now - 3 * 24 * HOUR_MS, now, current).canSend).toBe(false)
  })

  it('refuses after 7 days even with the HUMAN_AGENT permission', () => {
    expect(windowStatus(now - 7 * 24 * HOUR_MS, now, withAgent)).toEqual({ canSend: false, reason: 'closed' })
  })

  it('refuses when no customer message is known', () => {
    expect(windowStatus(undefined, now, withAgent)).toEqual({ canSend: false, reason: 'no_customer_message' })
  })

  it('treats a last message in the future as inside the window', () => {
    expect(windowStatus(now + 5_000, now, current).messagingType).toBe('RESPONSE')
  })

  it('tags every reply CONFIRMED_EVENT_UPDATE under the legacy policy, whatever the age', () => {
    const s = windowStatus(now - 30 * 24 * HOUR_MS, now, { policy: 'legacy', humanAgentEnabled: false })
    expect(s).toEqual({
      canSend: true,
      messagingType: 'MESSAGE_TAG',
      tag: 'CONFIRMED_EVENT_UPDATE',
      reason: 'legacy',
    })
    expect(windowStatus(undefined, now, { policy: 'legacy', humanAgentEnabled: false }).canSend).toBe(true)
  })

  it('applies a shorter standard window when the caller keeps a safety margin', () => {
    const opts = { ...current, standardWindowMs: BULK_SAFETY_WINDOW_MS }
    expect(windowStatus(now - 23.5 * HOUR_MS, now, opts).canSend).toBe(false)
    expect(windowStatus(now - 22 * HOUR_MS, now, opts).canSend).toBe(true)
  })
})
