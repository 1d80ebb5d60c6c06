import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggedIn, type TestApp, login, startTestApp } from '../testing/harness.ts'

/** PostgreSQL refuses U+0000 in text: every body carrying it is answered 422 naming the field, never 500. */
describe('a NUL character in a text field', () => {
  let t: TestApp
  let user: LoggedIn
  beforeAll(async () => {
    t = await startTestApp()
    user = await login(t.app, '5501')
  })
  afterAll(() => t.close())

  const post = (url: string, payload: unknown, auth = true) =>
    t.app.inject({ method: 'POST', url, headers: auth ? user.auth : {}, payload: payload as string })

  const expectRefused = async (res: Awaited<ReturnType<typeof post>>, field: string): Promise<void> => {
    expect(res.statusCode).toBe(422)
    expect(res.json().errors[field]?.[0]).toMatch(/NUL/)
  }

  it('is refused in the login body', async () => {
    await expectRefused(
      await post('/api/v2/login', { access_token: 'fb:5502', referral: 'friend\u0000' }, false),
      'referral',
    )
  })

  it('is refused in a page registration', async () => {
    await expectRefused(
      await post('/api/v2/page', { id: '5503', name: 'Bakery\u0000', access_token: 'page:5503' }),
      'name',
    )
  })

  it('is refused in a new bulk message, with the other invalid fields beside it', async () => {
    const res = await post('/api/v2/messages', {
      page_id: '5504',
      message_type_id: 3,
      message: 'Hello\u0000there',
      label: '[]',
      total_messages: 0,
      branded_messages_amount: 0,
    })
    await expectRefused(res, 'message')
    expect(res.json().errors.total_messages).toBeTruthy()
  })

  it('is refused in a touch, nested fields named by their path', async () => {
    const touch = (payload: Record<string, unknown>) =>
      post('/api/v2/messages/1/touch', { _method: 'PUT', status: 'NG', recipient_id: 'r1', ...payload })
    await expectRefused(await touch({ recipient_id: 'r\u0000' }), 'recipient_id')
    await expectRefused(
      await touch({ error_data: { error_message: 'boom\u0000', recipent_id: 'r1' } }),
      'error_data.error_message',
    )
  })
})
