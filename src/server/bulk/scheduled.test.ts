/**
 * A scheduled send's audience on every store (PGlite always, PostgreSQL with TEST_DATABASE_URL): created through
 * `POST /api/v2/messages/scheduled` as the wizard sends it, computed when it starts from the page's
 * conversations and the server's states of who is waiting. With "Include them" ticked every customer inside
 * the window is a recipient, those waiting for an answer too; without it the waiting ones are left out, by
 * the server's state when it has one, else by the network's newest message.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Conversation } from '../../core/graph/types.ts'
import { markDone, recordMessages, type RecordedMessage } from '../repo/conversation-states.ts'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  pageToken,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import { startScheduled, type StartDeps } from './scheduled.ts'
import { tokenBox } from './token-box.ts'

const HOUR = 3_600_000

onEveryStore("a scheduled send's audience", (kind) => {
  let t: TestApp
  let n = 0
  // The routes seal the page token with this key; the start opens it with the same.
  const key = randomBytes(32)
  const box = tokenBox(key)
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'true', TOKEN_ENCRYPTION_KEY: key.toString('base64') })
  })
  afterAll(() => t.close())

  const iso = (ms: number) => new Date(ms).toISOString()

  /** A conversation as the network lists it: its newest messages first, by the customer ('c') or the page. */
  function conversation(
    pageId: string,
    customerId: string,
    messages: ['c' | 'page', number][],
    canReply = true,
  ) {
    const newest = [...messages].sort((a, b) => b[1] - a[1])
    return {
      id: `t_${customerId}`,
      updated_time: iso(newest[0]![1]),
      participants: {
        data: [
          { id: customerId, name: `Customer ${customerId}` },
          { id: pageId, name: 'Tienda Sol' },
        ],
      },
      can_reply: canReply,
      messages: {
        data: newest.map(([from, at], i) => ({
          id: `m_${customerId}_${i}`,
          from:
            from === 'c'
              ? { id: customerId, name: `Customer ${customerId}` }
              : { id: pageId, name: 'Tienda Sol' },
          created_time: iso(at),
        })),
      },
    } as Conversation
  }

  /**
   * A page whose conversations, at `start`, are: three waiting for an answer inside the window (one by the
   * server's state, one by its state though a broadcast came after the customer's words, one the server has
   * no state of), three that are not (answered, marked done, the page's message last), one waiting outside
   * the window and one the page cannot reply to. The network lists them over two pages.
   */
  async function page(who: LoggedIn, pageId: string, start: number) {
    const at = (hoursBefore: number) => start - hoursBefore * HOUR
    const list = [
      conversation(pageId, `${pageId}01`, [['c', at(1)]]),
      conversation(pageId, `${pageId}02`, [
        ['c', at(6)],
        ['page', at(5)],
      ]),
      conversation(pageId, `${pageId}03`, [
        ['c', at(8)],
        ['page', at(10)],
      ]),
      conversation(pageId, `${pageId}04`, [
        ['c', at(12)],
        ['page', at(11)],
      ]),
      conversation(pageId, `${pageId}05`, [['c', at(14)]]),
      conversation(pageId, `${pageId}06`, [
        ['c', at(16)],
        ['page', at(15)],
      ]),
      conversation(pageId, `${pageId}07`, [['c', at(30)]]),
      conversation(pageId, `${pageId}08`, [['c', at(2)]], false),
    ]
    const message = (
      customer: string,
      kind: RecordedMessage['kind'],
      hoursBefore: number,
    ): RecordedMessage => ({
      pageId,
      customerId: `${pageId}${customer}`,
      kind,
      at: iso(at(hoursBefore)),
      text: kind,
      mid: `mid_${customer}_${kind}_${hoursBefore}`,
    })
    await recordMessages(t.app.store, [
      message('01', 'customer', 1),
      message('02', 'customer', 6),
      // A bulk send is no answer: the customer still waits.
      message('02', 'broadcast', 5),
      message('04', 'customer', 12),
      message('04', 'answer', 11),
      message('05', 'customer', 14),
      message('07', 'customer', 30),
      message('08', 'customer', 2),
    ])
    // Conversation 03 has no state (its messages came before the page was connected); 06 neither.
    await markDone(t.app.store, pageId, `${pageId}05`, who.user.id)
    const graph: StartDeps['graph'] = {
      async conversations(_page, _token, opts = {}) {
        const from = opts.after ? Number(opts.after) : 0
        const next = from + 4 < list.length ? String(from + 4) : undefined
        return {
          data: list.slice(from, from + 4),
          ...(next
            ? { paging: { cursors: { before: String(from), after: next }, next: `page-${next}` } }
            : {}),
        }
      },
      send: async () => ({ recipient_id: '', message_id: '' }),
      uploadAttachment: async () => ({ attachment_id: '' }),
      messages: async () => ({ data: [] }),
    }
    return {
      graph,
      waitingInside: [`${pageId}01`, `${pageId}02`, `${pageId}03`],
      notWaitingInside: [`${pageId}04`, `${pageId}05`, `${pageId}06`],
    }
  }

  /** Schedules a send as the wizard does, starts it at `start`, and answers its recipients in order. */
  async function scheduleAndStart(includeWaiting: boolean | undefined) {
    const pageId = `${kind === 'pglite' ? 7 : 8}55${++n}`
    const who = await login(t.app, pageId)
    await registerPage(t.app, who, pageId)
    await setAllowance(t.app, pageId, { subscriptions_messages: 100 })
    // The send starts two hours after it was scheduled: the window is judged then.
    const scheduledAt = Date.now() + 2 * HOUR
    const network = await page(who, pageId, scheduledAt)
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages/scheduled',
      headers: who.auth,
      payload: {
        page_id: pageId,
        message: 'Open on Sunday',
        label: '["all_labels"]',
        tag: null,
        messaging_type: 'RESPONSE',
        scheduled_at: scheduledAt,
        time_zone: 'Asia/Phnom_Penh',
        page_token: pageToken(pageId, pageId),
        ...(includeWaiting === undefined ? {} : { include_waiting: includeWaiting }),
      },
    })
    expect(created.statusCode).toBe(201)
    const id = (created.json() as { id: string }).id
    const deps: StartDeps = {
      store: t.app.store,
      box,
      graph: network.graph,
      notify: async () => undefined,
      now: () => scheduledAt,
    }
    expect(await startScheduled(deps, id)).toBe('started')
    const listed = await t.app.inject({
      url: `/api/v2/messages/${id}/recipients?limit=100`,
      headers: who.auth,
    })
    expect(listed.statusCode).toBe(200)
    const recipients = (listed.json() as { data: { recipient_id: string }[] }).data.map((r) => r.recipient_id)
    return { ...network, recipients }
  }

  it('with "Include them" ticked, reaches every customer inside the window, those waiting for an answer too', async () => {
    const { recipients, waitingInside, notWaitingInside } = await scheduleAndStart(true)
    expect(recipients).toEqual([...waitingInside, ...notWaitingInside])
  })

  it('without it, leaves out exactly the customers waiting for an answer', async () => {
    const unticked = await scheduleAndStart(false)
    expect(unticked.recipients).toEqual(unticked.notWaitingInside)
    // A request without the choice leaves them out too (the default).
    const unsaid = await scheduleAndStart(undefined)
    expect(unsaid.recipients).toEqual(unsaid.notWaitingInside)
  })
})
