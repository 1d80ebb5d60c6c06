import { describe, expect, it } from 'vitest'
import { sandboxForFile, type TestSandbox, VERSION } from './test-support.ts'

const HOUR = 3_600_000
let sb: TestSandbox

sandboxForFile((started) => (sb = started))

describe('the Graph client against the sandbox: reading', () => {
  it('reads the profile with nested field selection of the accounts edge', async () => {
    const token = await sb.userToken()
    const me = await sb.client.me(token, 'id,name,email,picture,accounts.limit(2){id,name}')
    expect(me.name).toBe('Dana Demo')
    expect(me.email).toBe('dana.demo@example.com')
    expect(me.picture?.data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/avatar\//)
    expect(me.accounts?.data).toHaveLength(2)
    expect(Object.keys(me.accounts!.data[0]!)).toEqual(['id', 'name'])
    const next = (await (await fetch(me.accounts!.paging!.next!)).json()) as {
      data: { id: string; name: string }[]
    }
    expect(next.data).toHaveLength(2)
    expect(Object.keys(next.data[0]!)).toEqual(['id', 'name'])
    const all = await sb.client.me(token, 'accounts{id,name}')
    expect(all.accounts?.data).toHaveLength(5)
    const limited = (await (
      await fetch(`${sb.url}/graph/${VERSION}/me?fields=accounts{id,name}&limit=3&access_token=${token}`)
    ).json()) as {
      accounts: { data: unknown[] }
    }
    expect(limited.accounts.data).toHaveLength(3)
  })

  it('answers /me and /me/conversations for a page token as the page', async () => {
    const token = await sb.pageToken(sb.ids.small)
    expect(await sb.client.me(token, 'id,name')).toEqual({ id: sb.ids.small, name: 'Kanha Bakery' })
    const res = await fetch(
      `${sb.url}/graph/${VERSION}/me/conversations?access_token=${token}&fields=id&limit=5`,
    )
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(5)
  })

  it('lists granted and declined permissions', async () => {
    const token = await sb.userToken('demo', ['pages_show_list', 'pages_messaging'], ['email'])
    const perms = await sb.client.permissions(token)
    expect(perms).toContainEqual({ permission: 'pages_messaging', status: 'granted' })
    expect(perms).toContainEqual({ permission: 'email', status: 'declined' })
    expect((await sb.client.me(token, 'id,name,email')).email).toBeUndefined()
  })

  it('lists each owner their own pages, the token-less page without an access token', async () => {
    const accounts = await sb.client.accounts(await sb.userToken())
    expect(accounts.data.map((a) => a.id).sort()).toEqual(
      [sb.ids.large, sb.ids.small, sb.ids.noToken, sb.ids.banned, sb.ids.trialUsed].sort(),
    )
    expect(accounts.data.find((a) => a.id === sb.ids.noToken)?.access_token).toBeUndefined()
    expect(accounts.data.find((a) => a.id === sb.ids.small)?.access_token).toMatch(/^EAAP/)
    const second = await sb.client.accounts(await sb.userToken('second'))
    expect(second.data.map((a) => a.id)).toEqual([sb.ids.second])
    const noList = await sb.client.accounts(await sb.userToken('demo', ['email']))
    expect(noList.data).toEqual([])
  })

  it("lists the demo owner's partner the pages they manage together, each with a page token of their own", async () => {
    const demoToken = await sb.userToken()
    const partnerToken = await sb.userToken('partner')
    const accounts = await sb.client.accounts(partnerToken)
    expect(accounts.data.map((a) => a.id).sort()).toEqual([sb.ids.large, sb.ids.small].sort())
    const own = await sb.pageToken(sb.ids.small, partnerToken)
    expect(own).toMatch(/^EAAP/)
    expect(own).not.toBe(await sb.pageToken(sb.ids.small, demoToken))
    const me = await sb.client.me(partnerToken, 'id,name,email')
    expect(me).toMatchObject({ name: 'Ana Partner', email: 'ana.partner@example.com' })
    expect(me.id).not.toBe((await sb.client.me(demoToken, 'id')).id)
    // Their page token reads the page's conversations as the owner's does.
    const convs = await sb.client.conversations(sb.ids.small, own, { limit: 5 })
    expect(convs.data).toHaveLength(5)
  })

  it('pages through every conversation of the large page newest first with absolute next links', async () => {
    const token = await sb.pageToken(sb.ids.large)
    let page = await sb.client.conversations(sb.ids.large, token, { limit: 100 })
    expect(page.paging?.next?.startsWith(`${sb.url}/graph/${VERSION}/${sb.ids.large}/conversations?`)).toBe(
      true,
    )
    const seen = [...page.data]
    while (page.paging?.next) {
      page = await sb.client.conversations(sb.ids.large, token, {
        limit: 100,
        after: page.paging.cursors!.after,
      })
      seen.push(...page.data)
    }
    expect(page.paging?.next).toBeUndefined()
    expect(seen).toHaveLength(sb.seeded(sb.ids.large).length)
    expect(new Set(seen.map((c) => c.id)).size).toBe(seen.length)
    const times = seen.map((c) => Date.parse(c.updated_time.replace('+0000', 'Z')))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    expect(seen[0]).toMatchObject({ can_reply: expect.any(Boolean), unread_count: expect.any(Number) })
  })

  it('defaults to 25 conversations, pages back with before, and filters by user_id', async () => {
    const token = await sb.pageToken(sb.ids.large)
    const first = await sb.client.conversations(sb.ids.large, token)
    expect(first.data).toHaveLength(25)
    const second = await sb.client.conversations(sb.ids.large, token, { after: first.paging!.cursors!.after })
    const back = await sb.client.conversations(sb.ids.large, token, {
      before: second.paging!.cursors!.before,
    })
    expect(back.data.map((c) => c.id)).toEqual(first.data.map((c) => c.id))
    const customer = second.data[3]!.participants.data[0]!
    const one = await sb.client.conversations(sb.ids.large, token, { userId: customer.id })
    expect(one.data.map((c) => c.id)).toEqual([second.data[3]!.id])
  })

  it('reads a conversation history newest first with from and to', async () => {
    const token = await sb.pageToken(sb.ids.large)
    const conv = sb.seeded(sb.ids.large).find((c) => c.historyLength > 30)!
    const msgs = await sb.client.messages(conv.id, token)
    expect(msgs.data).toHaveLength(25)
    expect(msgs.data[0]?.message).toBe(conv.snippet)
    expect(msgs.data[0]?.to.data).toHaveLength(1)
    const rest = await sb.client.messages(conv.id, token, { after: msgs.paging!.cursors!.after, limit: 100 })
    expect(msgs.data.length + rest.data.length).toBe(conv.historyLength)
    expect(rest.paging?.next).toBeUndefined()
  })

  it('serves participant pictures as a redirect to a generated avatar, or as JSON with redirect=false', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const customer = sb.seeded(sb.ids.small)[0]!.customer
    const res = await fetch(sb.client.pictureUrl(customer.id, token, 'small'))
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    const jpeg = Buffer.from(await res.arrayBuffer())
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
    const again = Buffer.from(
      await (await fetch(sb.client.pictureUrl(customer.id, token, 'small'))).arrayBuffer(),
    )
    expect(again.equals(jpeg)).toBe(true)
    const normal = Buffer.from(
      await (await fetch(sb.client.pictureUrl(customer.id, token, 'normal'))).arrayBuffer(),
    )
    expect(normal.equals(jpeg)).toBe(false)
    const json = (await (
      await fetch(`${sb.client.pictureUrl(customer.id, token, 'normal')}&redirect=false`)
    ).json()) as {
      data: { url: string; width: number }
    }
    expect(json.data).toMatchObject({ width: 100, url: expect.stringContaining('/sandbox/avatar/') })
  })

  it('exchanges a user token for a long-lived one and debugs it', async () => {
    const short = await sb.userToken()
    const long = await sb.client.exchangeToken(short, 'test-app', 'test-secret')
    expect(long.expires_in).toBeGreaterThan(50 * 24 * 3600)
    expect((await sb.client.me(long.access_token)).name).toBe('Dana Demo')
    const debug = (await (
      await fetch(
        `${sb.url}/graph/${VERSION}/debug_token?input_token=${long.access_token}&access_token=test-app|test-secret`,
      )
    ).json()) as { data: { is_valid: boolean; type: string } }
    expect(debug.data).toMatchObject({ is_valid: true, type: 'USER' })
    await expect(sb.client.exchangeToken(short, 'test-app', 'wrong')).rejects.toMatchObject({
      kind: 'config',
    })
  })
})

describe('the Graph client against the sandbox: sending', () => {
  it('sends a text inside the window; it shows in the conversation and the sent log', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const conv = sb
      .seeded(sb.ids.small)
      .find((c) => Date.now() - c.lastCustomerMs < 20 * HOUR && c.canReply && !c.blocked)!
    const result = await sb.client.send(sb.ids.small, token, {
      recipientId: conv.customer.id,
      messagingType: 'RESPONSE',
      text: 'Hello there',
    })
    expect(result.recipient_id).toBe(conv.customer.id)
    const top = await sb.client.conversations(sb.ids.small, token, { limit: 1 })
    expect(top.data[0]).toMatchObject({ id: conv.id, snippet: 'Hello there' })
    const msgs = await sb.client.messages(conv.id, token, { limit: 1 })
    expect(msgs.data[0]).toMatchObject({
      id: result.message_id,
      message: 'Hello there',
      from: { id: sb.ids.small },
    })
    const sent = (await (await fetch(`${sb.url}/sent`)).json()) as { data: Record<string, unknown>[] }
    expect(sent.data).toEqual([
      expect.objectContaining({
        page_id: sb.ids.small,
        recipient_id: conv.customer.id,
        messaging_type: 'RESPONSE',
        tag: null,
        text: 'Hello there',
        attachment: null,
      }),
    ])
    expect(sent.data[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('sends an image once as reusable, then by attachment id, and uploads attachments', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const [a, b] = sb
      .seeded(sb.ids.small)
      .filter((c) => Date.now() - c.lastCustomerMs < 20 * HOUR && c.canReply && !c.blocked)
    const first = await sb.client.send(sb.ids.small, token, {
      recipientId: a!.customer.id,
      messagingType: 'RESPONSE',
      attachment: { url: 'https://example.com/sale.png', isReusable: true },
    })
    expect(first.attachment_id).toBeTruthy()
    const second = await sb.client.send(sb.ids.small, token, {
      recipientId: b!.customer.id,
      messagingType: 'RESPONSE',
      attachment: { attachmentId: first.attachment_id! },
    })
    expect(second.attachment_id).toBeUndefined()
    const uploaded = await sb.client.uploadAttachment(sb.ids.small, token, 'https://example.com/other.png')
    expect(uploaded.attachment_id).toBeTruthy()
    const msgs = await sb.client.messages(b!.id, token, { limit: 1 })
    expect(msgs.data[0]?.attachments?.data[0]?.image_data?.url).toBe('https://example.com/sale.png')
  })

  it('accepts form-encoded sends with JSON-string fields, like the network', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const conv = sb
      .seeded(sb.ids.small)
      .find((c) => Date.now() - c.lastCustomerMs < 20 * HOUR && c.canReply && !c.blocked)!
    const form = new URLSearchParams({
      access_token: token,
      recipient: JSON.stringify({ id: conv.customer.id }),
      messaging_type: 'RESPONSE',
      message: JSON.stringify({ text: 'form hello' }),
    })
    const res = await fetch(`${sb.url}/graph/${VERSION}/me/messages`, { method: 'POST', body: form })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ recipient_id: conv.customer.id, message_id: expect.any(String) })
  })
})
