import { describe, expect, it } from 'vitest'
import { broadcastChannel, bulkMessage, isBulkMessage, type BulkMessage } from './protocol.ts'

describe('the sender protocol', () => {
  it('builds messages that its guard accepts and refuses foreign ones', () => {
    const all = [
      bulkMessage.wake('online'),
      bulkMessage.progress('1', 'running', { sent: 1, rejected: 0, skipped: 0, total: 3 }),
      bulkMessage.rejected('1', 'Ana', 'gone'),
      bulkMessage.needToken('100'),
      bulkMessage.noToken('100'),
      bulkMessage.tokens({ 100: 't' }),
      bulkMessage.lock(true),
    ]
    for (const m of all) expect(isBulkMessage(m)).toBe(true)
    expect(isBulkMessage({ type: 'other' })).toBe(false)
    expect(isBulkMessage('progress')).toBe(false)
    expect(bulkMessage.tokens({})).not.toHaveProperty('apiToken')
  })

  it('carries progress between two contexts over the bulk-progress channel', async () => {
    const channelName = `test-${Math.random()}`
    const sender = broadcastChannel(channelName)
    const receiver = broadcastChannel(channelName)
    const got = new Promise<BulkMessage>((resolve) => receiver.subscribe(resolve))
    sender.post(bulkMessage.progress('7', 'finished', { sent: 2, rejected: 1, skipped: 0, total: 3 }))
    expect(await got).toMatchObject({ type: 'progress', jobId: '7', counts: { sent: 2 } })
    for (const c of [sender, receiver]) c.close()
  })
})
