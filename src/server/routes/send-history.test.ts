import { afterAll, beforeAll, expect, it } from 'vitest'
import { messagesList } from '../../core/contracts/api.ts'
import { historyList, sendReport } from '../../core/contracts/send-history.ts'
import type { SqlParam } from '../db/store.ts'
import { purgeSendHistory } from '../repo/send-history.ts'
import {
  type LoggedIn,
  type TestApp,
  createMessage,
  login,
  onEveryStore,
  registerPage,
  startTestApp,
} from '../testing/harness.ts'

onEveryStore('send history and reports', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  let stranger: LoggedIn
  beforeAll(async () => {
    t = await startTestApp(kind)
    owner = await login(t.app, '5101')
    stranger = await login(t.app, '5102')
    await registerPage(t.app, owner, '881')
    await registerPage(t.app, owner, '882')
    await registerPage(t.app, stranger, '883')
  })
  afterAll(() => t.close())

  const get = (url: string, who: LoggedIn = owner) => t.app.inject({ method: 'GET', url, headers: who.auth })
  const q = (sql: string, params: SqlParam[] = []) => t.app.store.query(sql, params)

  /** An ended send of `pageId` whose recipients are given as [id, status, error, delivered, read]. */
  async function endedSend(
    pageId: string,
    people: [string, 'OK' | 'NG' | null, string?][],
    opts: { state?: 'finished' | 'stopped'; createdDaysAgo?: number } = {},
  ): Promise<string> {
    const res = await createMessage(t.app, owner, pageId)
    const id = res.json().id as string
    let seq = 0
    for (const [rid, status, error] of people) {
      seq++
      await q(
        `INSERT INTO message_recipients (message_id, recipient_id, name, conversation_id, status, error_data, touched_at)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, CASE WHEN $5::text IS NULL THEN NULL ELSE now() - interval '30 hours' + make_interval(secs => $7) END)`,
        [
          id,
          rid,
          `Name ${rid}`,
          `t_${rid}`,
          status,
          error ? JSON.stringify({ error_message: error, recipent_id: rid }) : null,
          seq,
        ],
      )
    }
    const ok = people.filter((p) => p[1] === 'OK').length
    const ng = people.filter((p) => p[1] === 'NG').length
    await q(
      `UPDATE messages SET state = $2, ok_count = $3, ng_count = $4, total_messages = $5,
         created_at = now() - make_interval(days => $6) WHERE id = $1`,
      [id, opts.state ?? 'finished', ok, ng, people.length, opts.createdDaysAgo ?? 0],
    )
    return id
  }

  it("lists every job of one page with the page's name, and only that page's", async () => {
    const a = (await createMessage(t.app, owner, '881')).json().id as string
    const b = (await createMessage(t.app, owner, '882')).json().id as string
    const res = await get('/api/v2/messages?page_id=881')
    expect(res.statusCode).toBe(200)
    const ids = messagesList.parse(res.json()).data.map((m) => m.id)
    expect(ids).toContain(a)
    expect(ids).not.toContain(b)
    expect(messagesList.parse(res.json()).data.find((m) => m.id === a)?.page_name).toBe('Page 881')
  })

  it.each([
    ['page_id=abc', 'page_id'],
    ['page_id=', 'page_id'],
    ['state=all&extra=1', 'extra'],
  ])('refuses a bad list query (%s) with 422 naming the field', async (query, field) => {
    const res = await get(`/api/v2/messages?${query}`)
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toHaveProperty(field)
  })

  it('refuses the list of a page the caller does not manage with 403', async () => {
    expect((await get('/api/v2/messages?page_id=883')).statusCode).toBe(403)
    expect((await get('/api/v2/pages/883/send-history')).statusCode).toBe(403)
  })

  it('keeps a dismissed send in the history with its figures, replied within 24 h counted', async () => {
    const id = await endedSend('882', [
      ['c1', 'OK'],
      ['c2', 'OK'],
      ['c3', 'OK'],
      ['c4', 'NG', '(#551) This person isn’t available right now.'],
      ['c5', 'NG', '(#551) This person isn’t available right now.'],
      ['c6', 'NG', '(#10) Outside the window'],
    ])
    await q(
      `UPDATE message_recipients SET delivered_at = now(), read_at = CASE WHEN recipient_id = 'c1' THEN now() END
             WHERE message_id = $1 AND recipient_id IN ('c1', 'c2')`,
      [id],
    )
    await q(`UPDATE messages SET delivered_count = 2, read_count = 1 WHERE id = $1`, [id])
    // c1 wrote 2 h after receiving it (replied); c2 wrote 25 h after (not within 24 h); c3 wrote only before.
    const sentAt = async (rid: string) =>
      (
        (await q('SELECT touched_at FROM message_recipients WHERE message_id = $1 AND recipient_id = $2', [
          id,
          rid,
        ])) as { touched_at: Date }[]
      )[0]!.touched_at
    const write = async (rid: string, at: Date, mid: string) =>
      q(
        `INSERT INTO page_messages (page_id, mid, customer_id, from_page, text, attachments, created_time)
           VALUES ('882', $1, $2, false, 'hi', '[]'::jsonb, $3)`,
        [mid, rid, at.toISOString()],
      )
    await write('c1', new Date((await sentAt('c1')).getTime() + 2 * 3600_000), 'm1')
    await write('c2', new Date((await sentAt('c2')).getTime() + 25 * 3600_000), 'm2')
    await write('c3', new Date((await sentAt('c3')).getTime() - 60_000), 'm3')
    // The page answering c3 is not a reply.
    await q(
      `INSERT INTO page_messages (page_id, mid, customer_id, from_page, text, attachments, created_time)
         VALUES ('882', 'm4', 'c3', true, 'hello', '[]'::jsonb, now())`,
    )

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v2/messages/${id}`, headers: owner.auth }))
        .statusCode,
    ).toBe(200)
    expect(
      messagesList.parse((await get('/api/v2/messages?page_id=882')).json()).data.map((m) => m.id),
    ).not.toContain(id)

    const history = historyList.parse((await get('/api/v2/pages/882/send-history')).json())
    const entry = history.data.find((e) => e.id === id)
    expect(entry).toMatchObject({ dismissed: true, state: 'finished', page_name: 'Page 882' })
    expect(entry?.figures).toEqual({
      total: 6,
      sent: 3,
      rejected: 3,
      skipped: 0,
      delivered: 2,
      read: 1,
      replied: 1,
    })

    const report = sendReport.parse((await get(`/api/v2/messages/${id}/report`)).json())
    expect(report.job.figures.replied).toBe(1)
    expect(report.rejected_by_reason).toEqual([
      { reason: '(#551) This person isn’t available right now.', count: 2 },
      { reason: '(#10) Outside the window', count: 1 },
    ])
    expect(report.recipients.map((r) => [r.recipient_id, r.status, r.delivered, r.read, r.replied])).toEqual([
      ['c1', 'sent', true, true, true],
      ['c2', 'sent', true, false, false],
      ['c3', 'sent', false, false, false],
      ['c4', 'rejected', false, false, false],
      ['c5', 'rejected', false, false, false],
      ['c6', 'rejected', false, false, false],
    ])
    const paged = sendReport.parse((await get(`/api/v2/messages/${id}/report?limit=4`)).json())
    expect(paged.recipients).toHaveLength(4)
    const rest = sendReport.parse(
      (await get(`/api/v2/messages/${id}/report?limit=4&after=${paged.next}`)).json(),
    )
    expect(rest.recipients.map((r) => r.recipient_id)).toEqual(['c5', 'c6'])
    expect(rest.next).toBeNull()
  })

  it('exports the report as CSV with every field quoted and formulas neutralised', async () => {
    const id = await endedSend(
      '882',
      [
        ['=cmd', 'OK'],
        ['c8', 'NG', 'say "no", @once'],
      ],
      { state: 'stopped' },
    )
    await q(
      `UPDATE message_recipients SET name = '=HYPERLINK("http://x")' WHERE message_id = $1 AND recipient_id = '=cmd'`,
      [id],
    )
    const res = await get(`/api/v2/messages/${id}/report.csv`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/csv')
    expect(res.headers['content-disposition']).toContain(`send-${id}.csv`)
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe('"recipient_id","name","status","reason","sent_at_utc","delivered","read","replied"')
    expect(lines[1]).toMatch(/^"'=cmd","'=HYPERLINK\(""http:\/\/x""\)","sent","",/)
    expect(lines[2]).toMatch(/^"c8","Name c8","rejected","say ""no"", @once","","false","false","false"$/)
  })

  it("answers 404 for another owner's report and a send still running, 422 for a bad query", async () => {
    const id = await endedSend('882', [['c9', 'OK']])
    expect((await get(`/api/v2/messages/${id}/report`, stranger)).statusCode).toBe(404)
    expect((await get(`/api/v2/messages/${id}/report.csv`, stranger)).statusCode).toBe(404)
    const running = (await createMessage(t.app, owner, '882')).json().id as string
    expect((await get(`/api/v2/messages/${running}/report`)).statusCode).toBe(404)
    const bad = await get(`/api/v2/messages/${id}/report?limit=0&after=x`)
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['after', 'limit'])
    expect((await get(`/api/v2/messages/${id}/report.csv?x=1`)).statusCode).toBe(422)
    expect((await get('/api/v2/pages/882/send-history?limit=500')).statusCode).toBe(422)
    expect((await get('/api/v2/pages/x/send-history')).statusCode).toBe(404)
  })

  it('purges ended sends after 90 days and keeps younger ones and running ones', async () => {
    const old = await endedSend('881', [['o1', 'OK']], { createdDaysAgo: 91 })
    const young = await endedSend('881', [['y1', 'OK']], { createdDaysAgo: 89 })
    const running = (await createMessage(t.app, owner, '881')).json().id as string
    await q(`UPDATE messages SET created_at = now() - interval '120 days' WHERE id = $1`, [running])
    const ids = historyList.parse((await get('/api/v2/pages/881/send-history')).json()).data.map((e) => e.id)
    expect(ids).toContain(young)
    expect(ids).not.toContain(old)
    expect(await purgeSendHistory(t.app.store)).toBeGreaterThanOrEqual(1)
    const left = (await q('SELECT id::text FROM messages WHERE id = ANY($1::bigint[])', [
      [old, young, running],
    ])) as { id: string }[]
    expect(left.map((r) => r.id).sort()).toEqual([young, running].sort())
    expect(await q('SELECT 1 FROM message_recipients WHERE message_id = $1', [old])).toHaveLength(0)
  })

  it('pages the history newest first', async () => {
    const first = historyList.parse((await get('/api/v2/pages/882/send-history?limit=1')).json())
    expect(first.data).toHaveLength(1)
    expect(first.next).toBe(first.data[0]!.id)
    const second = historyList.parse(
      (await get(`/api/v2/pages/882/send-history?limit=1&before=${first.next}`)).json(),
    )
    expect(Number(second.data[0]!.id)).toBeLessThan(Number(first.data[0]!.id))
  })
})
