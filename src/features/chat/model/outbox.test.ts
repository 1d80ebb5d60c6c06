import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '../../../device/db/db.ts'
import {
  flushReplies,
  type OutboxTransport,
  queueReply,
  type SentMessage,
  undeliveredReplies,
} from './outbox.ts'

const pageId = 'page1'

class FakeNetwork implements OutboxTransport {
  pageId = pageId
  online = true
  /** Messages the network holds (what latestMessages answers). */
  delivered: SentMessage[] = []
  sends = 0
  /** Deliver, then lose the answer (the uncertain case). */
  dropAnswer = false
  refuse?: { kind: string; message: string }
  clock = 1_000_000
  now = () => this.clock

  async send(_entry: unknown, part: { text: string } | { imageUrl: string }): Promise<void> {
    if (!this.online) throw Object.assign(new TypeError('Failed to fetch'), { kind: 'network' })
    if (this.refuse) throw Object.assign(new Error(this.refuse.message), { kind: this.refuse.kind })
    this.sends += 1
    this.delivered.push({
      fromId: pageId,
      text: 'text' in part ? part.text : '',
      createdAt: this.clock,
      imageUrls: 'imageUrl' in part ? [part.imageUrl] : [],
    })
    if (this.dropAnswer) throw Object.assign(new TypeError('Failed to fetch'), { kind: 'network' })
  }

  async latestMessages(): Promise<SentMessage[]> {
    if (!this.online) throw Object.assign(new TypeError('Failed to fetch'), { kind: 'network' })
    return this.delivered
  }
}

beforeEach(async () => {
  await db.replyOutbox.clear()
})

describe('the reply outbox', () => {
  it('keeps a reply written offline as undelivered and sends it once when back online', async () => {
    const net = new FakeNetwork()
    net.online = false
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'hello' })
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'stopped', kind: 'network' })
    expect(await undeliveredReplies(pageId, 'c1')).toHaveLength(1)

    net.online = true
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'sent' })
    expect(await flushReplies(net)).toEqual([])
    expect(net.sends).toBe(1)
    expect(await undeliveredReplies(pageId, 'c1')).toEqual([])
  })

  it('does not send again a reply whose answer was lost but which the conversation shows', async () => {
    const net = new FakeNetwork()
    net.dropAnswer = true
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'are you there?' })
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'stopped', kind: 'network' })
    expect((await undeliveredReplies(pageId, 'c1'))[0]?.state).toBe('sending')

    net.dropAnswer = false
    net.clock += 5_000
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'sent' })
    expect(net.sends).toBe(1)
  })

  it('sends again an uncertain reply that the conversation does not show', async () => {
    const net = new FakeNetwork()
    net.online = false
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'first try' })
    await flushReplies(net)
    // An older identical message from before the attempt does not count as this one.
    net.delivered.push({ fromId: pageId, text: 'first try', createdAt: net.clock - 10 * 60_000 })
    net.online = true
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'sent' })
    expect(net.sends).toBe(1)
  })

  it('marks a reply the network refuses as failed and never retries it', async () => {
    const net = new FakeNetwork()
    net.refuse = { kind: 'outside_window', message: 'outside the allowed window' }
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'late' })
    expect((await flushReplies(net))[0]).toMatchObject({
      result: 'failed',
      kind: 'outside_window',
      error: 'outside the allowed window',
    })
    net.refuse = undefined
    expect(await flushReplies(net)).toEqual([])
    expect((await undeliveredReplies(pageId, 'c1'))[0]?.state).toBe('failed')
  })

  it('keeps a reply pending after an expired token so it goes out after the refresh', async () => {
    const net = new FakeNetwork()
    net.refuse = { kind: 'auth', message: 'Error validating access token' }
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'soon' })
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'stopped', kind: 'auth' })
    expect((await undeliveredReplies(pageId, 'c1'))[0]?.state).toBe('pending')
    net.refuse = undefined
    expect((await flushReplies(net))[0]).toMatchObject({ result: 'sent' })
  })

  it('sends the image before the text and only the text when retried after the image went', async () => {
    const net = new FakeNetwork()
    await queueReply({
      pageId,
      conversationId: 'c1',
      recipientId: 'u1',
      text: 'look',
      imageUrl: 'http://x/i.png',
    })
    await flushReplies(net)
    expect(net.delivered.map((m) => m.text)).toEqual(['', 'look'])
    expect(net.delivered[0]?.imageUrls).toEqual(['http://x/i.png'])
  })

  it('delivers exactly once when two tabs flush at the same time', async () => {
    const net = new FakeNetwork()
    await queueReply({ pageId, conversationId: 'c1', recipientId: 'u1', text: 'once' })
    await Promise.all([flushReplies(net), flushReplies(net)])
    expect(net.sends).toBe(1)
  })

  it('leaves other pages’ replies alone', async () => {
    const net = new FakeNetwork()
    await queueReply({ pageId: 'other', conversationId: 'c1', recipientId: 'u1', text: 'not mine' })
    expect(await flushReplies(net)).toEqual([])
  })
})
