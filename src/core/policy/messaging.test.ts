import { describe, expect, it } from 'vitest'
import {
  contentOptions,
  defaultContent,
  isInsideWindow,
  splitByWindow,
  tagForSend,
  WINDOW_SAFETY_MS,
} from './messaging.ts'
import { conversationCustomerMessageAt, lastCustomerMessageAt } from './window.ts'

const HOUR = 3_600_000

describe('the messaging policy', () => {
  it('offers only the standard message under the current policy, with the retired tags disabled', () => {
    const options = contentOptions('current')
    expect(options.filter((o) => o.enabled).map((o) => o.value)).toEqual(['STANDARD'])
    expect(options.filter((o) => !o.enabled).every((o) => o.reason === 'retired')).toBe(true)
    // Each retired tag points to the utility message that replaced it.
    expect(options.filter((o) => !o.enabled).map((o) => [o.value, o.successor])).toEqual([
      ['CONFIRMED_EVENT_UPDATE', 'event_reminder'],
      ['POST_PURCHASE_UPDATE', 'order_update'],
      ['ACCOUNT_UPDATE', 'account_update'],
    ])
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

describe('the window is judged from the customer’s last message', () => {
  const now = 100 * HOUR
  const pageId = 'page'
  const msg = (fromId: string, at: number) => ({ fromId, createdAt: at })

  it('leaves out a customer who wrote three days ago even when the page replied an hour ago', () => {
    const history = [msg(pageId, now - HOUR), msg('customer', now - 72 * HOUR)]
    const last = lastCustomerMessageAt(pageId, history)
    expect(last).toBe(now - 72 * HOUR)
    const { inside, outside } = splitByWindow(
      'current',
      [history],
      (h) => lastCustomerMessageAt(pageId, h),
      now,
    )
    expect(inside).toEqual([])
    expect(outside).toEqual([history])
  })

  it('keeps a customer who wrote an hour ago whatever the page sent after', () => {
    const history = [msg(pageId, now - 1000), msg('customer', now - HOUR)]
    expect(isInsideWindow(lastCustomerMessageAt(pageId, history), now)).toBe(true)
  })

  it('counts a conversation with no known customer message as outside', () => {
    expect(lastCustomerMessageAt(pageId, [msg(pageId, now - HOUR)])).toBeUndefined()
    expect(isInsideWindow(undefined, now)).toBe(false)
  })

  it('reads the customer’s last message from the messages nested in a Graph conversation', () => {
    const conversation = {
      id: 't_1',
      updated_time: new Date(now - HOUR).toISOString(),
      participants: { data: [{ id: 'customer', name: 'C' }] },
      messages: {
        data: [
          { id: 'm2', from: { id: pageId, name: 'Page' }, created_time: new Date(now - HOUR).toISOString() },
          {
            id: 'm1',
            from: { id: 'customer', name: 'C' },
            created_time: new Date(now - 72 * HOUR).toISOString(),
          },
        ],
      },
    }
    expect(conversationCustomerMessageAt(pageId, conversation)).toBe(now - 72 * HOUR)
    expect(conversationCustomerMessageAt(pageId, { ...conversation, messages: undefined })).toBeUndefined()
  })
})
