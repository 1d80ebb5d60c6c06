import { afterAll, beforeAll, expect, it } from 'vitest'
import { SAVED_REPLIES_PER_USER } from '../../core/contracts/saved-replies.ts'
import { type LoggedIn, type TestApp, login, onEveryStore, startTestApp } from '../testing/harness.ts'

interface Reply {
  id: string
  title: string
  text: string
  updated_at: string
}

onEveryStore('saved replies', (kind) => {
  let t: TestApp
  let a: LoggedIn
  let b: LoggedIn
  beforeAll(async () => {
    t = await startTestApp(kind)
    a = await login(t.app, '7101')
    b = await login(t.app, '7102')
  })
  afterAll(() => t.close())

  const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: who.auth,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const list = async (who: LoggedIn) => (await call(who, 'GET', '/saved-replies')).json().data as Reply[]

  it('creates, lists newest first, edits and deletes a user reply', async () => {
    const first = await call(a, 'POST', '/saved-replies', { title: ' Hours ', text: 'We open at 9 am.' })
    expect(first.statusCode).toBe(201)
    const created = first.json().data as Reply
    expect(created).toMatchObject({ title: 'Hours', text: 'We open at 9 am.' })
    const second = (await call(a, 'POST', '/saved-replies', { text: 'Thank you!' })).json().data as Reply
    expect(second.title).toBe('')
    expect((await list(a)).map((r) => r.id)).toEqual([second.id, created.id])

    const edited = await call(a, 'PUT', `/saved-replies/${created.id}`, {
      title: 'Hours',
      text: 'We open at 8 am.',
    })
    expect(edited.statusCode).toBe(200)
    expect((edited.json().data as Reply).text).toBe('We open at 8 am.')
    expect((await list(a))[0]!.id).toBe(created.id)

    expect((await call(a, 'DELETE', `/saved-replies/${created.id}`)).statusCode).toBe(200)
    expect((await list(a)).map((r) => r.id)).toEqual([second.id])
    await call(a, 'DELETE', `/saved-replies/${second.id}`)
  })

  it('keeps each user replies private: another user reply is 404 and never listed', async () => {
    const mine = (await call(a, 'POST', '/saved-replies', { text: 'Private' })).json().data as Reply
    expect(await list(b)).toEqual([])
    expect((await call(b, 'PUT', `/saved-replies/${mine.id}`, { text: 'Taken' })).statusCode).toBe(404)
    expect((await call(b, 'DELETE', `/saved-replies/${mine.id}`)).statusCode).toBe(404)
    expect((await list(a)).find((r) => r.id === mine.id)?.text).toBe('Private')
    expect((await call(a, 'DELETE', '/saved-replies/999999999')).statusCode).toBe(404)
    await call(a, 'DELETE', `/saved-replies/${mine.id}`)
  })

  it('answers 401 without a session', async () => {
    expect((await t.app.inject({ url: '/api/v2/saved-replies' })).statusCode).toBe(401)
  })

  it('refuses bad payloads with 422 and an errors map, never a 500', async () => {
    const cases: [object, string][] = [
      [{ text: '' }, 'text'],
      [{ text: '   ' }, 'text'],
      [{}, 'text'],
      [{ text: 'x'.repeat(2001) }, 'text'],
      [{ text: 'ok', title: 't'.repeat(81) }, 'title'],
      [{ text: 42 }, 'text'],
      [{ text: 'ok', extra: 1 }, 'extra'],
      [{ text: 'a\u0000b' }, 'text'],
    ]
    for (const [payload, field] of cases) {
      const res = await call(a, 'POST', '/saved-replies', payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(422)
      expect(Object.keys(res.json().errors as object), JSON.stringify(payload)).toContain(field)
    }
    const put = await call(a, 'PUT', '/saved-replies/abc', { text: 'ok' })
    expect(put.statusCode).toBe(422)
    expect(put.json().errors).toHaveProperty('id')
    expect((await call(a, 'POST', '/saved-replies', { text: 'x'.repeat(2000) })).statusCode).toBe(201)
  })

  it(`keeps at most ${SAVED_REPLIES_PER_USER} replies per user`, async () => {
    const c = await login(t.app, '7103')
    await t.app.store.query(
      `INSERT INTO saved_replies (user_id, text) SELECT $1, 'r' || g FROM generate_series(1, $2) g`,
      [c.user.id, SAVED_REPLIES_PER_USER],
    )
    const res = await call(c, 'POST', '/saved-replies', { text: 'One more' })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.text[0]).toMatch(/at most 200/)
    expect((await call(b, 'POST', '/saved-replies', { text: 'Fine' })).statusCode).toBe(201)
  })
})
