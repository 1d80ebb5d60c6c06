import { describe, expect, it } from 'vitest'
import { contentOptions, defaultContent, splitByWindow, tagForSend, WINDOW_SAFETY_MS } from './messaging.ts'

const HOUR = 3_600_000

describe('the messaging policy', () => {
  it('offers only the standard message under the current policy, with the retired tags disabled', () => {
    const options = contentOptions('current')
    expect(options.filter((o) => o.enabled).map((o) => o.value)).toEqual(['STANDARD'])
    expect(options.filter((o) => !o.enabled).every((o) => o.reason === 'retired')).toBe(true)
    expect(options).toHaveLength(4)
  })

  it('offers the three tags under the legacy policy with CONFIRMED_EVENT_UPDATE by default', () => {
    expect(contentOptions('legacy').map((o) => o.value)).toEqual([
      'CONFIRMED_EVENT_UPDATE',
      'POST_PURCHASE_UPDATE',
      'ACCOUNT_UPDATE',
    ])
    expect(defaultContent('legacy')).toBe('CONFIRMED_EVENT_UPDATE')
    expect(defaultContent('current')).toBe('STANDARD')
  })

  it('tags a send only with a legacy tag under the legacy policy', () => {
    expect(tagForSend('legacy', 'ACCOUNT_UPDATE')).toEqual({
      messagingType: 'MESSAGE_TAG',
      tag: 'ACCOUNT_UPDATE',
    })
    expect(tagForSend('current', 'ACCOUNT_UPDATE')).toEqual({ messagingType: 'RESPONSE' })
    expect(tagForSend('legacy', 'SOMETHING')).toEqual({ messagingType: 'RESPONSE' })
  })

  it('leaves out recipients past the 23-hour safety margin under the current policy', () => {
    const now = 100 * HOUR
    const items = [now - HOUR, now - 22.9 * HOUR, now - WINDOW_SAFETY_MS, now - 30 * HOUR]
    const { inside, outside } = splitByWindow('current', items, (t) => t, now)
    expect(inside).toEqual([now - HOUR, now - 22.9 * HOUR])
    expect(outside).toHaveLength(2)
    expect(splitByWindow('legacy', items, (t) => t, now).outside).toEqual([])
  })
})
