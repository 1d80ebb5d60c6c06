/**
 * Who is waiting for an answer, on the server: a customer's message makes the conversation need a reply and
 * counts unread; a broadcast (an echo carrying the broadcast metadata) changes neither and is kept apart; a
 * person's answer or "done" ends it; opening the chat clears the unread for everyone; the page's other people
 * hear each change, and hear who is replying (throttled).
 */
import { createHmac } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BROADCAST_METADATA, type ConversationState } from '../../core/contracts/conversation-states.ts'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'

const SECRET = 'states-test-secret'
const PAGE = '682498302938466'
const OTHER_PAGE = '682498302938467'
const PSID = '1254477777772920'

onEveryStore('Conversation states', (kind) => {
  let t: TestApp
  let ana: LoggedIn
  let ben: LoggedIn
  let stranger: LoggedIn
  // Messages of the last half hour, a second apart: "done" (the server's now) comes after them.
  let clock = Date.now() - 30 * 60_000

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { FB_APP_SECRET: SECRET })
    ana = await login(t.app, '7101')
    ben = await login(t.app, '7102')
    stranger = await login(t.app, '7103')
    await registerPage(t.app, ana, PAGE)
    await setAllowance(t.app, '7102', { access_type: 'paid' })
    await registerPage(t.app, ben, PAGE)
    await registerPage(t.app, stranger, OTHER_PAGE)
  })
  afterAll(() => t.close())

  const webhook = (message: Record<string, unknown>, fromPage = false) => webhookFrom(PSID, message, fromPage)
  async function webhookFrom(psid: string, message: Record<string, unknown>, fromPage = false) {
    clock += 1_000
    const raw = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: clock,
          messaging: [
            {
              sender: { id: fromPage ? PAGE : psid },
              recipient: { id: fromPage ? psid : PAGE },
              timestamp: clock,
              message: { mid: `m_${clock}`, ...(fromPage ? { is_echo: true } : {}), ...message },
            },
          ],
        },
      ],
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/messenger',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
      },
    })
    expect(res.statusCode).toBe(200)
    await t.app.webhooks.drain()
  }
  const states = async (who: LoggedIn, page = PAGE) => {
    const res = await t.app.inject({
      url: `/api/v2/pages/${page}/conversation-states`,
      headers: who.auth,
    })
    return { status: res.statusCode, data: (res.json() as { data: ConversationState[] }).data }
  }
  const state = async () => (await states(ana)).data.find((s) => s.customerId === PSID)!
  const post = (who: LoggedIn, url: string, payload?: object): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: `/api/v2/pages/${PAGE}/${url}`,
      headers: who.auth,
      ...(payload ? { payload } : {}),
    })
  const events = async (userId: string, type: string) =>
    (
      await t.app.store.query<{ data: Record<string, unknown> }>(
        'SELECT data FROM owner_events WHERE user_id = $1 AND type = $2 ORDER BY id',
        [userId, type],
      )
    ).map((r) => r.data)

  it('a customer question needs a reply; a broadcast after it leaves the words, the unread and the state', async () => {
    await webhook({ text: 'Do you have it in size M?' })
    await webhook({ text: 'And in blue?' })
    expect(await state()).toMatchObject({
      customerText: 'And in blue?',
      unread: 2,
      needsReply: true,
      broadcastAt: null,
    })
    await webhook({ text: 'Sunday promotion: 20% off', metadata: BROADCAST_METADATA }, true)
    const after = await state()
    expect(after).toMatchObject({
      customerText: 'And in blue?',
      unread: 2,
      needsReply: true,
      broadcastText: 'Sunday promotion: 20% off',
    })
    // Both people of the page heard every change.
    for (const who of [ana, ben]) {
      const heard = await events(who.user.id, 'conversation_state')
      expect(heard.at(-1)).toMatchObject({ customerId: PSID, needsReply: true, unread: 2 })
    }
    // The message event says it was a broadcast.
    const messages = await events(ana.user.id, 'message')
    expect(messages.at(-1)).toMatchObject({ fromPage: true, broadcast: true })
  })

  it("a person's answer (an echo without the broadcast mark) ends it", async () => {
    await webhook({ text: 'Yes, size M in blue is here.' }, true)
    expect(await state()).toMatchObject({ needsReply: false, unread: 0, customerText: 'And in blue?' })
  })

  it('"done" ends it until the customer writes again; opening clears the unread only', async () => {
    await webhook({ text: 'Can you deliver?' })
    expect(await state()).toMatchObject({ needsReply: true, unread: 1 })
    const seen = await post(ana, `conversation-states/${PSID}/seen`)
    expect(seen.statusCode).toBe(200)
    expect(await state()).toMatchObject({ needsReply: true, unread: 0 })
    const done = await post(ben, `conversation-states/${PSID}/done`)
    expect(done.statusCode).toBe(200)
    expect(await state()).toMatchObject({ needsReply: false, doneBy: ben.user.name })
    clock = Date.now()
    await webhook({ text: 'Hello?' })
    expect(await state()).toMatchObject({ needsReply: true, unread: 1, customerText: 'Hello?' })
  })

  it('"done" can be taken back by its person while nothing newer happened, and then no more', async () => {
    const customer = '1254477777772950'
    const of = async () => (await states(ana)).data.find((s) => s.customerId === customer)!
    const undo = (who: LoggedIn) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/v2/pages/${PAGE}/conversation-states/${customer}/done`,
        headers: who.auth,
      })
    // Messages of the last minute: "done" (the server's now) comes after them.
    clock = Date.now() - 60_000
    await webhookFrom(customer, { text: 'Is it in stock?' })
    await webhookFrom(customer, { text: 'Any news?' })
    expect(await of()).toMatchObject({ needsReply: true, unread: 2 })
    expect((await post(ana, `conversation-states/${customer}/done`)).statusCode).toBe(200)
    expect(await of()).toMatchObject({ needsReply: false, unread: 0, doneBy: ana.user.name })
    // Only the person who marked it takes it back.
    const other = await undo(ben)
    expect(other.statusCode).toBe(406)
    expect(other.json()).toMatchObject({ code: 'done_changed' })
    const back = await undo(ana)
    expect(back.statusCode).toBe(200)
    expect((back.json() as { data: ConversationState }).data).toMatchObject({ needsReply: true, unread: 2 })
    expect(await of()).toMatchObject({ needsReply: true, unread: 2, doneAt: null, doneBy: null })
    // The page's other people heard it.
    expect((await events(ben.user.id, 'conversation_state')).at(-1)).toMatchObject({
      customerId: customer,
      needsReply: true,
    })
    // Twice is once.
    expect((await undo(ana)).statusCode).toBe(406)

    // Marked done again, then the customer writes: too late to take it back, the new message stays counted.
    expect((await post(ana, `conversation-states/${customer}/done`)).statusCode).toBe(200)
    clock = Date.now()
    await webhookFrom(customer, { text: 'Hello?' })
    expect((await undo(ana)).statusCode).toBe(406)
    expect(await of()).toMatchObject({ needsReply: true, unread: 1, customerText: 'Hello?' })
    // A stranger to the page cannot.
    expect((await undo(stranger)).statusCode).toBe(403)
  })

  it("keeps a page's history from before it was connected: a broadcast then leaves who is waiting as it was", async () => {
    const waiting = '1254477777772931'
    const answered = '1254477777772932'
    const known = '1254477777772933'
    const asked = new Date(Date.now() - 3 * 86_400_000).toISOString()
    const replied = new Date(Date.now() - 2 * 86_400_000).toISOString()
    // A state the webhooks keep is not changed by what a list says.
    await webhookFrom(known, { text: 'Still open?' })
    const res = await post(ana, 'conversation-history', {
      conversations: [
        {
          customer_id: waiting,
          customer_at: asked,
          customer_text: 'What time do you open tomorrow?',
          unread: 3,
          page_at: null,
        },
        { customer_id: answered, customer_at: asked, customer_text: null, unread: 0, page_at: replied },
        { customer_id: known, customer_at: asked, customer_text: 'old words', unread: 9, page_at: null },
      ],
    })
    expect(res.statusCode).toBe(200)
    const answer = (res.json() as { data: ConversationState[] }).data
    expect(answer.map((s) => s.customerId).sort()).toEqual([waiting, answered, known].sort())
    const of = async (id: string) => (await states(ben)).data.find((s) => s.customerId === id)!
    expect(await of(waiting)).toMatchObject({
      customerText: 'What time do you open tomorrow?',
      unread: 3,
      needsReply: true,
      customerAt: asked,
    })
    expect(await of(answered)).toMatchObject({ needsReply: false, answeredAt: replied, unread: 0 })
    expect(await of(known)).toMatchObject({ customerText: 'Still open?', unread: 1 })

    // The broadcast: the network now shows the page's message last and nothing unread; a list read after it
    // changes nothing, and the state keeps the customer's words, the unread count and the wait.
    await webhookFrom(waiting, { text: 'Weekend sale: 20% off', metadata: BROADCAST_METADATA }, true)
    const listedAfter = new Date().toISOString()
    await post(ana, 'conversation-history', {
      conversations: [
        { customer_id: waiting, customer_at: asked, customer_text: null, unread: 0, page_at: listedAfter },
      ],
    })
    expect(await of(waiting)).toMatchObject({
      customerText: 'What time do you open tomorrow?',
      unread: 3,
      needsReply: true,
      broadcastText: 'Weekend sale: 20% off',
    })
    // A person's answer ends the wait.
    await webhookFrom(waiting, { text: 'We open at 8.' }, true)
    expect(await of(waiting)).toMatchObject({ needsReply: false, unread: 0 })
  })

  it("a state that only knows a broadcast learns the customer's last message from the list", async () => {
    const customer = '1254477777772934'
    const asked = new Date(Date.now() - 86_400_000).toISOString()
    await webhookFrom(customer, { text: 'Flash sale', metadata: BROADCAST_METADATA }, true)
    expect((await states(ana)).data.find((s) => s.customerId === customer)).toMatchObject({
      needsReply: false,
    })
    await post(ana, 'conversation-history', {
      conversations: [
        {
          customer_id: customer,
          customer_at: asked,
          customer_text: null,
          unread: 0,
          page_at: new Date().toISOString(),
        },
      ],
    })
    expect((await states(ana)).data.find((s) => s.customerId === customer)).toMatchObject({
      needsReply: true,
      customerAt: asked,
      broadcastText: 'Flash sale',
    })
  })

  it('a history is for the people of the page, one list page at a time, and bad items are 422', async () => {
    const item = { customer_id: PSID, customer_at: null, customer_text: null, unread: 0, page_at: null }
    expect((await post(stranger, 'conversation-history', { conversations: [item] })).statusCode).toBe(403)
    const tooMany = await post(ana, 'conversation-history', { conversations: Array(101).fill(item) })
    expect(tooMany.statusCode).toBe(422)
    const bad = await post(ana, 'conversation-history', {
      conversations: [{ ...item, customer_at: 'yesterday', unread: -1 }],
    })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys((bad.json() as { errors: object }).errors).sort()).toEqual([
      'conversations.0.customer_at',
      'conversations.0.unread',
    ])
  })

  it('only the people of the page see or change its states; bad ids are 422', async () => {
    expect((await states(stranger)).status).toBe(403)
    expect((await post(stranger, `conversation-states/${PSID}/done`)).statusCode).toBe(403)
    const bad = await post(ana, 'conversation-states/not-a-psid/done')
    expect(bad.statusCode).toBe(422)
    expect(Object.keys((bad.json() as { errors: object }).errors)).toContain('customerId')
    const badBody = await post(ana, 'replying', { customer_id: 'x' })
    expect(badBody.statusCode).toBe(422)
  })

  it("tells the page's other people who is replying, at most once every 2 s, lasting a few seconds", async () => {
    const first = await post(ana, 'replying', { customer_id: PSID })
    const again = await post(ana, 'replying', { customer_id: PSID })
    expect(first.json()).toMatchObject({ sent: true })
    expect(again.json()).toMatchObject({ sent: false })
    const heard = await events(ben.user.id, 'replying')
    expect(heard).toHaveLength(1)
    expect(heard[0]).toMatchObject({ customerId: PSID, userId: ana.user.id, name: ana.user.name })
    expect(Date.parse(heard[0]!.until as string)).toBeGreaterThan(Date.now())
    // The one replying does not hear themself.
    expect(await events(ana.user.id, 'replying')).toHaveLength(0)
  })

  it("tells the page's other people that a customer's labels changed, so their open chat reads them again", async () => {
    const res = await post(ben, 'labels-changed', { customer_ids: [PSID] })
    expect(res.statusCode).toBe(200)
    const heard = await events(ana.user.id, 'labels')
    expect(heard).toEqual([{ pageId: PAGE, customerIds: [PSID] }])
    expect(await events(ben.user.id, 'labels')).toHaveLength(0)
    // A label deleted from the page: no customer named, every chat reads the page's labels again.
    expect((await post(ben, 'labels-changed', { customer_ids: [] })).statusCode).toBe(200)
    expect((await events(ana.user.id, 'labels')).at(-1)).toEqual({ pageId: PAGE, customerIds: [] })
    expect((await post(stranger, 'labels-changed', { customer_ids: [PSID] })).statusCode).toBe(403)
    const bad = await post(ben, 'labels-changed', { customer_ids: ['x'] })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys((bad.json() as { errors: object }).errors)[0]).toMatch(/^customer_ids/)
  })
})
