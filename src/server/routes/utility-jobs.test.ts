/**
 * A utility job through `POST /api/v2/messages`: its template and parameters are stored with the kind
 * `utility` and read back; a wrong template, a missing parameter or a kind that does not match is a 422
 * naming the field.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  startTestApp,
} from '../testing/harness.ts'

const utility = {
  name: 'event_reminder',
  language: 'en_US',
  body: 'Hi {{1}}, a reminder: {{2}} takes place on {{3}}.',
  params: ['{first name}', 'the cake class', 'Saturday 10:00'],
}
const base = {
  page_id: '778',
  message_type_id: 3,
  message: 'Hi {first name}, a reminder: the cake class takes place on Saturday 10:00.',
  label: '["all_labels"]',
  total_messages: 2,
  branded_messages_amount: 0,
  content_kind: 'utility',
  kind: 'utility',
  utility,
}

onEveryStore('utility jobs', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  beforeAll(async () => {
    t = await startTestApp(kind)
    owner = await login(t.app, '4101')
    await registerPage(t.app, owner, '778')
  })
  afterAll(() => t.close())

  const post = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v2/messages', headers: owner.auth, payload: payload as string })

  it('stores a utility job with its template and reads it back', async () => {
    const res = await post(base)
    expect(res.statusCode).toBe(201)
    const id = res.json().id as string
    const [row] = await t.app.store.query<{ kind: string; content_kind: string; utility: unknown }>(
      'SELECT kind, content_kind, utility FROM messages WHERE id = $1',
      [id],
    )
    expect(row).toEqual({ kind: 'utility', content_kind: 'utility', utility })
  })

  it('answers 422 with the field for a bad template, a missing parameter or a mismatched kind', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ utility: { ...utility, name: 'Has Spaces' } }, 'utility.name'],
      [{ utility: { ...utility, params: ['{first name}', 'the cake class'] } }, 'utility.params'],
      [{ utility: { ...utility, params: ['{first name}', ' ', 'Saturday'] } }, 'utility.params.1'],
      [{ utility: undefined }, 'utility'],
      [{ kind: 'standard' }, 'kind'],
      [{ content_kind: 'text', kind: undefined }, 'utility'],
    ]
    for (const [change, field] of cases) {
      const res = await post({ ...base, ...change })
      expect([field, res.statusCode]).toEqual([field, 422])
      expect(Object.keys((res.json() as { errors: Record<string, string[]> }).errors)).toContain(field)
    }
  })
})
