import { describe, expect, it } from 'vitest'
import type { SendRequest } from '../core/graph/types.ts'
import { splitByWindow } from '../core/policy/messaging.ts'
import { conversationCustomerMessageAt } from '../core/policy/window.ts'
import type { DemoConversation } from './state/demo.ts'
import { startSandbox } from './test-support.ts'

const DAY = 24 * 3_600_000
const sendable = (c: DemoConversation) => c.canReply && !c.blocked
const text = (c: DemoConversation, extra: Partial<SendRequest> = {}): SendRequest => ({
  recipientId: c.customer.id,
  messagingType: 'RESPONSE',
  text: 'Hi',
  ...extra,
})

describe('other policies', () => {
  it('legacy accepts the three tags outside the window but still refuses RESPONSE there', async () => {
    const legacy = await startSandbox({ policy: 'legacy' })
    try {
      const token = await legacy.pageToken(legacy.ids.large)
      const old = legacy
        .seeded(legacy.ids.large)
        .find((c) => sendable(c) && Date.now() - c.lastCustomerMs > 30 * DAY)!
      for (const tag of ['CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE', 'ACCOUNT_UPDATE']) {
        await expect(
          legacy.client.send(legacy.ids.large, token, text(old, { messagingType: 'MESSAGE_TAG', tag })),
        ).resolves.toMatchObject({
          recipient_id: old.customer.id,
        })
      }
      await expect(legacy.client.send(legacy.ids.large, token, text(old))).rejects.toMatchObject({
        kind: 'outside_window',
      })
    } finally {
      await legacy.app.close()
    }
  })

  it('with the human-agent feature, HUMAN_AGENT works up to 7 days and not beyond', async () => {
    const ha = await startSandbox({ humanAgent: true })
    try {
      const token = await ha.pageToken(ha.ids.large)
      const convs = ha.seeded(ha.ids.large)
      const days3 = convs.find(
        (c) =>
          sendable(c) && Date.now() - c.lastCustomerMs > 2 * DAY && Date.now() - c.lastCustomerMs < 6 * DAY,
      )!
      const days10 = convs.find((c) => sendable(c) && Date.now() - c.lastCustomerMs > 10 * DAY)!
      const tag = { messagingType: 'MESSAGE_TAG' as const, tag: 'HUMAN_AGENT' }
      await expect(ha.client.send(ha.ids.large, token, text(days3, tag))).resolves.toBeTruthy()
      await expect(ha.client.send(ha.ids.large, token, text(days10, tag))).rejects.toMatchObject({
        kind: 'outside_window',
      })
    } finally {
      await ha.app.close()
    }
  })
})

describe('a conversation whose last message is the page’s', () => {
  it('keeps the window of the customer’s last message, and shows it in the nested messages', async () => {
    const sb = await startSandbox({ humanAgent: true })
    try {
      const token = await sb.pageToken(sb.ids.large)
      const old = sb
        .seeded(sb.ids.large)
        .find(
          (c) =>
            sendable(c) && Date.now() - c.lastCustomerMs > 2 * DAY && Date.now() - c.lastCustomerMs < 6 * DAY,
        )!
      const customerAt = old.lastCustomerMs
      await sb.client.send(
        sb.ids.large,
        token,
        text(old, { messagingType: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }),
      )

      const listed = await sb.client.conversations(sb.ids.large, token, { userId: old.customer.id })
      const conv = listed.data[0]!
      expect(Date.now() - Date.parse(conv.updated_time)).toBeLessThan(60_000)
      expect(conv.messages?.data[0]?.from.id).toBe(sb.ids.large)
      expect(conversationCustomerMessageAt(sb.ids.large, conv)).toBe(Math.floor(customerAt / 1000) * 1000)

      const judge = (c: typeof conv) => conversationCustomerMessageAt(sb.ids.large, c)
      expect(splitByWindow('current', [conv], judge, Date.now()).outside).toEqual([conv])
      await expect(sb.client.send(sb.ids.large, token, text(old))).rejects.toMatchObject({
        kind: 'outside_window',
      })
    } finally {
      await sb.app.close()
    }
  })
})
