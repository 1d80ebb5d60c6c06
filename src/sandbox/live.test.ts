import { describe, expect, it } from 'vitest'
import { startSandbox } from './test-support.ts'

describe('the live sandbox', () => {
  it('delivers new customer messages every liveMs, which reopen the window and lead the list', async () => {
    const sb = await startSandbox({ liveMs: 40 })
    try {
      const small = await sb.pageToken(sb.ids.small)
      const large = await sb.pageToken(sb.ids.large)
      const before = [
        (await sb.client.conversations(sb.ids.small, small, { limit: 1 })).data[0],
        (await sb.client.conversations(sb.ids.large, large, { limit: 1 })).data[0],
      ]
      await new Promise((r) => setTimeout(r, 400))
      const after = [
        (await sb.client.conversations(sb.ids.small, small, { limit: 1 })).data[0],
        (await sb.client.conversations(sb.ids.large, large, { limit: 1 })).data[0],
      ]
      const fresh = after.filter(
        (c, i) => c!.updated_time !== before[i]!.updated_time || c!.id !== before[i]!.id,
      )
      expect(fresh.length).toBeGreaterThan(0)
      for (const c of fresh)
        expect(Date.now() - Date.parse(c!.updated_time.replace('+0000', 'Z'))).toBeLessThan(2_000)
    } finally {
      await sb.app.close()
    }
  })

  it('lets a customer who never wrote to the page write: a new conversation at the top, with its name', async () => {
    const sb = await startSandbox()
    try {
      const token = await sb.pageToken(sb.ids.small)
      const write = (body: object) =>
        fetch(`${sb.url}/customer-message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const res = await write({ page_id: sb.ids.small, new_customer: 'Dara Sok', text: 'First time here' })
      expect(res.status).toBe(200)
      const written = (await res.json()) as {
        customer_id: string
        customer_name: string
        conversation_id: string
      }
      expect(written.customer_name).toBe('Dara Sok')
      const list = (await (
        await fetch(
          `${sb.url}/graph/v25.0/${sb.ids.small}/conversations?fields=id,participants,snippet,unread_count&limit=2&access_token=${token}`,
        )
      ).json()) as {
        data: {
          id: string
          snippet: string
          unread_count: number
          participants: { data: { id: string; name: string }[] }
        }[]
      }
      expect(list.data[0]).toMatchObject({
        id: written.conversation_id,
        snippet: 'First time here',
        unread_count: 1,
      })
      expect(list.data[0]!.participants.data).toContainEqual({
        id: written.customer_id,
        name: 'Dara Sok',
        email: `${written.customer_id}@facebook.com`,
      })
      const messages = (await (
        await fetch(
          `${sb.url}/graph/v25.0/${written.conversation_id}/messages?fields=message&access_token=${token}`,
        )
      ).json()) as { data: { message: string }[] }
      expect(messages.data.map((m) => m.message)).toEqual(['First time here'])
      // A customer id that already has a conversation is not new; a page is needed.
      const again = { page_id: sb.ids.small, new_customer: 'Dara Sok', customer_id: written.customer_id }
      expect((await write(again)).status).toBe(409)
      expect((await write({ new_customer: 'Dara Sok' })).status).toBe(400)
    } finally {
      await sb.app.close()
    }
  })

  it('answers CORS preflights and allows any origin on the Graph API, like the network', async () => {
    const sb = await startSandbox()
    try {
      const pre = await fetch(`${sb.url}/graph/v25.0/me/messages`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-headers')).toContain('content-type')
      const res = await fetch(`${sb.url}/graph/v25.0/me?access_token=nope`)
      expect(res.status).toBe(400)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    } finally {
      await sb.app.close()
    }
  })
})
