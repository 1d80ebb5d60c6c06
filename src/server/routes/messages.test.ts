import { afterAll, beforeAll, expect, it } from 'vitest'
import { messagesList, recipientsPage } from '../../core/contracts/api.ts'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'

const base = {
  page_id: '777',
  message_type_id: 3,
  message: 'Hello',
  label: '["all_labels"]',
  tag: 'CONFIRMED_EVENT_UPDATE',
  total_messages: 3,
  branded_messages_amount: 0,
}
const people = (ids: string[]) =>
  ids.map((id) => ({ recipient_id: id, name: `Name ${id}`, conversation_id: `t_${id}` }))

onEveryStore('stored bulk messages', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  let stranger: LoggedIn
  beforeAll(async () => {
    t = await startTestApp(kind)
    owner = await login(t.app, '4001')
    stranger = await login(t.app, '4002')
    await registerPage(t.app, owner, '777')
  })
  afterAll(() => t.close())

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: LoggedIn, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: who.auth,
      ...(payload === undefined ? {} : { payload: payload as string }),
    })
  const create = async (extra: Record<string, unknown> = {}) =>
    (await call('POST', '/api/v2/messages', owner, { ...base, ...extra })).json().id as string

  it('creates a message and answers its id', async () => {
    const res = await call('POST', '/api/v2/messages', owner, base)
    expect(res.statusCode).toBe(201)
    expect(res.json().id).toMatch(/^\d+$/)
  })

  it('refuses a message for a page the caller has not registered with 403, storing nothing', async () => {
    const res = await call('POST', '/api/v2/messages', stranger, base)
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'page_not_bound' })
    expect(messagesList.parse((await call('GET', '/api/v2/messages', stranger)).json()).data).toHaveLength(0)
  })

  it.each([
    ['an unknown message type', { message_type_id: 4 }],
    ['an empty message', { message: '' }],
    ['a text too long', { message: 'x'.repeat(2001) }],
    ['a total of zero', { total_messages: 0 }],
    ['a total given as text', { total_messages: '3' }],
    ['a bad page id', { page_id: '12a' }],
    ['an extra field', { priority: 1 }],
    ['an image URL that is not a URL', { image_url: 'javascript:alert(1)x y' }],
  ])('refuses %s with 422', async (_what, extra) => {
    const res = await call('POST', '/api/v2/messages', owner, { ...base, ...extra })
    expect(res.statusCode).toBe(422)
    expect(Object.keys(res.json().errors).length).toBeGreaterThan(0)
  })

  it('records the labels the audience was chosen by and the first-name fallback, and lists them back', async () => {
    const audience = {
      match: 'all',
      labels: [
        { id: '1001200005003', name: 'VIP' },
        { id: '1001200005002', name: 'Talla M' },
      ],
    }
    const id = await create({
      audience_labels: audience,
      name_fallback: 'amigo',
      message: 'Hola {first name}',
    })
    const listed = messagesList.parse((await call('GET', '/api/v2/messages', owner)).json()).data
    const mine = listed.find((m) => m.id === id)!
    expect(mine.audience_labels).toEqual(audience)
    expect(mine.name_fallback).toBe('amigo')
    const plain = listed.find((m) => m.id !== id)!
    expect(plain.audience_labels).toBeNull()
  })

  it.each([
    ['no labels in a label audience', { audience_labels: { match: 'any', labels: [] } }],
    [
      'a label id that is not numeric',
      { audience_labels: { match: 'any', labels: [{ id: 'x1', name: 'VIP' }] } },
    ],
    ['an unknown match', { audience_labels: { match: 'some', labels: [{ id: '1', name: 'VIP' }] } }],
    [
      'a label name too long',
      { audience_labels: { match: 'any', labels: [{ id: '1', name: 'x'.repeat(65) }] } },
    ],
    ['an empty fallback word', { name_fallback: '  ' }],
  ])('refuses %s with 422 naming the field', async (_what, extra) => {
    const res = await call('POST', '/api/v2/messages', owner, { ...base, ...extra })
    expect(res.statusCode).toBe(422)
    expect(Object.keys(res.json().errors).join(' ')).toMatch(/audience_labels|name_fallback/)
  })

  it('bounds the declared branded amount by the total, the authorisation and the allowance, with 422', async () => {
    const brand = await login(t.app, '4003')
    await registerPage(t.app, brand, '778')
    const declare = (total: number, branded: number) =>
      call('POST', '/api/v2/messages', brand, {
        ...base,
        page_id: '778',
        total_messages: total,
        branded_messages_amount: branded,
      })
    const refused = async (total: number, branded: number, text: string) => {
      const res = await declare(total, branded)
      expect(res.statusCode).toBe(422)
      expect(res.json().errors).toEqual({ branded_messages_amount: [text] })
    }
    await setAllowance(t.app, '4003', { subscriptions_messages: 2, addons_messages: 1 })
    await refused(1, 1_000_000, 'The branded messages cannot be more than the total messages.')
    await refused(5, 2, 'Branded messages have not been authorised for this account.')
    await setAllowance(t.app, '4003', { use_branded_messages: true })
    // 3 available: of 5 recipients the allowance covers 3, so at most 2 carry the footer.
    await refused(5, 3, 'At most 2 of these messages can be branded: the allowance covers the others.')
    await refused(3, 1, 'At most 0 of these messages can be branded: the allowance covers the others.')
    expect((await declare(5, 2)).statusCode).toBe(201)
    expect((await declare(5, 0)).statusCode).toBe(201)
    await setAllowance(t.app, '4003', { is_unlimited: true })
    await refused(5, 1, 'At most 0 of these messages can be branded: the allowance covers the others.')
    const stored = messagesList.parse((await call('GET', '/api/v2/messages', brand)).json()).data
    expect(stored.map((m) => m.branded_messages_amount)).toEqual([2, 0])
  })

  it('appends recipients idempotently in order and pages through them with a cursor', async () => {
    const id = await create({ total_messages: 5 })
    expect(
      (
        await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients: people(['a', 'b', 'c']) })
      ).json(),
    ).toEqual({ added: 3, total: 3 })
    expect(
      (
        await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients: people(['c', 'd']) })
      ).json(),
    ).toEqual({ added: 1, total: 4 })
    await call('POST', `/api/v2/messages/${id}/touch`, owner, {
      _method: 'PUT',
      status: 'OK',
      recipient_id: 'b',
    })
    const first = recipientsPage.parse(
      (await call('GET', `/api/v2/messages/${id}/recipients?limit=3`, owner)).json(),
    )
    expect(first.data.map((r) => [r.recipient_id, r.status])).toEqual([
      ['a', null],
      ['b', 'OK'],
      ['c', null],
    ])
    expect(first.data[0]).toMatchObject({ name: 'Name a', conversation_id: 't_a', sent_as_branded: false })
    const second = recipientsPage.parse(
      (await call('GET', `/api/v2/messages/${id}/recipients?limit=3&after=${first.next}`, owner)).json(),
    )
    expect(second).toEqual({ data: [expect.objectContaining({ recipient_id: 'd' })], next: null })
  })

  it('refuses recipients beyond the total, and malformed recipient lists, with 422', async () => {
    const id = await create({ total_messages: 2 })
    const over = await call('PUT', `/api/v2/messages/${id}/recipients`, owner, {
      recipients: people(['a', 'b', 'c']),
    })
    expect(over.statusCode).toBe(422)
    expect(over.json().errors.recipients[0]).toMatch(/room for 2/)
    expect((await call('GET', `/api/v2/messages/${id}/recipients`, owner)).json().data).toHaveLength(0)
    expect(
      (await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients: [] })).statusCode,
    ).toBe(422)
    expect(
      (await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients: [{ recipient_id: 'x' }] }))
        .statusCode,
    ).toBe(422)
    const tooMany = people(Array.from({ length: 5001 }, (_, i) => `p${i}`))
    expect(
      (await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients: tooMany })).statusCode,
    ).toBe(422)
    expect((await call('GET', `/api/v2/messages/${id}/recipients?after=zz`, owner)).statusCode).toBe(422)
    expect((await call('GET', `/api/v2/messages/${id}/recipients?limit=5001`, owner)).statusCode).toBe(422)
  })

  it('refuses a list longer than the job, repeats counted, and any body over 8 MB, storing nothing', async () => {
    const id = await create({ total_messages: 2 })
    const put = (payload: unknown) => call('PUT', `/api/v2/messages/${id}/recipients`, owner, payload)
    const repeated = await put({ recipients: people(['a', 'a', 'a']) })
    expect(repeated.statusCode).toBe(422)
    expect(repeated.json().errors.recipients[0]).toMatch(/room for 2/)
    const long = await put({ recipients: people(Array.from({ length: 5000 }, () => 'a')) })
    expect(long.statusCode).toBe(422)
    // Padding counts as bytes like anything else.
    const padded = `{"recipients":${JSON.stringify(people(['a']))}${' '.repeat(8 * 1024 * 1024)}}`
    const huge = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/messages/${id}/recipients`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: padded,
    })
    expect(huge.statusCode).toBe(413)
    expect((await call('GET', `/api/v2/messages/${id}/recipients`, owner)).json().data).toHaveLength(0)
    // A list within the job, and the same list again (a retry), are taken.
    expect((await put({ recipients: people(['a', 'b']) })).json()).toEqual({ added: 2, total: 2 })
    expect((await put({ recipients: people(['a', 'b']) })).json()).toEqual({ added: 0, total: 2 })
  })

  it('takes 5000 recipients with long names in one call, beyond the 1 MB limit of other bodies', async () => {
    const id = await create({ total_messages: 5000 })
    const recipients = people(Array.from({ length: 5000 }, (_, i) => `n${i}`)).map((r) => ({
      ...r,
      name: 'ស'.repeat(100),
    }))
    expect(Buffer.byteLength(JSON.stringify({ recipients }))).toBeGreaterThan(1024 * 1024)
    const res = await call('PUT', `/api/v2/messages/${id}/recipients`, owner, { recipients })
    expect(res.json()).toEqual({ added: 5000, total: 5000 })
    const page = recipientsPage.parse(
      (await call('GET', `/api/v2/messages/${id}/recipients?limit=5000`, owner)).json(),
    )
    expect(page.data[4999]!.recipient_id).toBe('n4999')
  })

  it('lists open messages, and finished or deleted ones leave the open list', async () => {
    const open = await create()
    const finished = await create()
    const stopped = await create()
    const deleted = await create()
    expect(
      (await call('POST', `/api/v2/messages/${finished}/state`, owner, { state: 'finished' })).statusCode,
    ).toBe(200)
    await call('POST', `/api/v2/messages/${stopped}/state`, owner, {
      state: 'stopped',
      reason: 'page_blocked',
    })
    expect((await call('DELETE', `/api/v2/messages/${deleted}`, owner)).statusCode).toBe(200)
    const list = messagesList.parse((await call('GET', '/api/v2/messages?state=open', owner)).json())
    const ids = list.data.map((m) => m.id)
    expect(ids).toContain(open)
    expect(ids).toContain(stopped)
    expect(ids).not.toContain(finished)
    expect(ids).not.toContain(deleted)
    expect(list.data.find((m) => m.id === stopped)).toMatchObject({
      state: 'stopped',
      stop_reason: 'page_blocked',
    })
    expect((await call('GET', '/api/v2/messages?state=done', owner)).statusCode).toBe(422)
    expect((await call('POST', `/api/v2/messages/${open}/state`, owner, { state: 'open' })).statusCode).toBe(
      422,
    )
  })

  it("answers 404 for another user's message on every route, and leaves it untouched", async () => {
    const id = await create()
    const tries = [
      call('GET', `/api/v2/messages/${id}/recipients`, stranger),
      call('PUT', `/api/v2/messages/${id}/recipients`, stranger, { recipients: people(['z']) }),
      call('POST', `/api/v2/messages/${id}/touch`, stranger, {
        _method: 'PUT',
        status: 'OK',
        recipient_id: 'z',
      }),
      call('POST', `/api/v2/messages/${id}/state`, stranger, { state: 'finished' }),
      call('DELETE', `/api/v2/messages/${id}`, stranger),
    ]
    for (const res of await Promise.all(tries)) {
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe('Message not found.')
    }
    expect(messagesList.parse((await call('GET', '/api/v2/messages', stranger)).json()).data).toHaveLength(0)
    expect((await call('GET', `/api/v2/messages/${id}/recipients`, owner)).json().data).toHaveLength(0)
  })

  it('answers 404 for ids that cannot exist and 422 for malformed touches', async () => {
    const id = await create()
    for (const bad of ['abc', '-1', '99999999999999999999', '0x10']) {
      expect((await call('DELETE', `/api/v2/messages/${bad}`, owner)).statusCode).toBe(404)
    }
    for (const payload of [
      { status: 'OK', recipient_id: 'r' },
      { _method: 'PUT', status: 'MAYBE', recipient_id: 'r' },
      { _method: 'PUT', status: 'OK' },
      { _method: 'PUT', status: 'OK', recipient_id: 'r', sent_as_branded: 'no' },
      { _method: 'PUT', status: 'NG', recipient_id: 'r', error_data: 'oops' },
    ]) {
      const res = await call('POST', `/api/v2/messages/${id}/touch`, owner, payload)
      expect(res.statusCode).toBe(422)
    }
    const viaPut = await call('PUT', `/api/v2/messages/${id}/touch`, owner, {
      _method: 'PUT',
      status: 'NG',
      recipient_id: 'r',
    })
    expect(viaPut.statusCode).toBe(200)
  })
})
