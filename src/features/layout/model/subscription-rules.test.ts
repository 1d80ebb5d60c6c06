import { describe, expect, it } from 'vitest'
import { badgeTone, showsBrandedBanner, showsFairUseNotice, showsMessageBadge } from './subscription-rules.ts'

const base = {
  access: true,
  is_unlimited: false,
  unlimited_blocked: false,
  available_messages: 500,
  use_branded_messages: false,
}

describe('message badge', () => {
  it('is primary above 1000, warning at or below 1000, danger below 100', () => {
    expect(badgeTone(1001)).toBe('primary')
    expect(badgeTone(1000)).toBe('warning')
    expect(badgeTone(100)).toBe('warning')
    expect(badgeTone(99)).toBe('danger')
    expect(badgeTone(0)).toBe('danger')
  })
  it('is hidden only for unlimited subscribers that are not blocked', () => {
    expect(showsMessageBadge(base)).toBe(true)
    expect(showsMessageBadge({ ...base, is_unlimited: true })).toBe(false)
    expect(showsMessageBadge({ ...base, is_unlimited: true, unlimited_blocked: true })).toBe(true)
  })
})

describe('branded messages banner', () => {
  it('shows at 100 or fewer messages left, not above', () => {
    expect(showsBrandedBanner({ ...base, available_messages: 100 })).toBe(true)
    expect(showsBrandedBanner({ ...base, available_messages: 101 })).toBe(false)
  })
  it('never shows to unlimited subscribers or to users who already authorised branding', () => {
    expect(showsBrandedBanner({ ...base, available_messages: 5, is_unlimited: true })).toBe(false)
    expect(showsBrandedBanner({ ...base, available_messages: 5, use_branded_messages: true })).toBe(false)
  })
  it('never shows to a user without access, who is on the plans page', () => {
    expect(showsBrandedBanner({ ...base, available_messages: 5, access: false })).toBe(false)
  })
})

describe('fair-use notice', () => {
  it('shows only to blocked unlimited subscribers', () => {
    expect(showsFairUseNotice({ ...base, is_unlimited: true, unlimited_blocked: true })).toBe(true)
    expect(showsFairUseNotice({ ...base, is_unlimited: true })).toBe(false)
    expect(showsFairUseNotice({ ...base, unlimited_blocked: true })).toBe(false)
  })
})
