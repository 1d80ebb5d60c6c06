import { describe, expect, it } from 'vitest'
import { sandboxForFile, type TestSandbox, VERSION } from './test-support.ts'

let sb: TestSandbox

sandboxForFile((started) => (sb = started))

async function firstUnread(token: string) {
  const page = await sb.client.conversations(sb.ids.large, token, { limit: 100 })
  const conv = page.data.find((c) => (c.unread_count ?? 0) > 0)!
  return { conv, customerId: conv.participants.data[0]!.id }
}

describe('sender actions on the Send API', () => {
  it('mark_seen through /me/messages answers the recipient only and clears the unread count', async () => {
    const token = await sb.pageToken(sb.ids.large)
    const { conv, customerId } = await firstUnread(token)
    expect(await sb.client.markSeen(token, customerId)).toEqual({ recipient_id: customerId })

    const again = await sb.client.conversations(sb.ids.large, token, { limit: 100 })
    expect(again.data.find((c) => c.id === conv.id)?.unread_count).toBe(0)
    const log = (await (await fetch(`${sb.url}/sender-actions`)).json()) as { data: unknown[] }
    expect(log.data).toEqual([
      expect.objectContaining({
        page_id: sb.ids.large,
        recipient_id: customerId,
        sender_action: 'mark_seen',
      }),
    ])
    // A sender action is not a message: nothing in the sent log, nothing in the conversation.
    const sent = (await (await fetch(`${sb.url}/sent`)).json()) as { data: unknown[] }
    expect(sent.data).toEqual([])
  })

  it('refuses an unknown action, an action with a message and an unknown recipient as the network does', async () => {
    const token = await sb.pageToken(sb.ids.large)
    const { customerId } = await firstUnread(token)
    const post = (body: unknown) =>
      fetch(`${sb.url}/graph/${VERSION}/me/messages?access_token=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: number } } }))
    expect((await post({ recipient: { id: customerId }, sender_action: 'wave' })).body.error?.code).toBe(100)
    expect(
      (await post({ recipient: { id: customerId }, sender_action: 'mark_seen', message: { text: 'hi' } }))
        .body.error?.code,
    ).toBe(100)
    expect((await post({ recipient: { id: '1' }, sender_action: 'mark_seen' })).status).toBe(400)
    expect((await post({ recipient: { id: customerId }, sender_action: 'typing_on' })).body).toEqual({
      recipient_id: customerId,
    })
  })

  it('gives each page its unread messages in the accounts list, lowered by mark_seen', async () => {
    const user = await sb.userToken()
    const before = (await sb.client.accounts(user)).data.find((a) => a.id === sb.ids.large)!
    const seeded = sb.seeded(sb.ids.large).reduce((sum, c) => sum + c.unread, 0)
    expect(before.unread_message_count).toBe(seeded)
    const token = await sb.pageToken(sb.ids.large, user)
    const { conv, customerId } = await firstUnread(token)
    await sb.client.markSeen(token, customerId)
    const after = (await sb.client.accounts(user)).data.find((a) => a.id === sb.ids.large)!
    expect(after.unread_message_count).toBe(seeded - conv.unread_count!)
  })
})
