import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, login, startTestApp } from '../testing/harness.ts'

describe('login and the client configuration', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(() => t.close())

  it('logs a new user in with a trial and a 256-bit token', async () => {
    const { token, user } = await login(t.app, '1001')
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(user.facebook_id).toBe('1001')
    expect(user.subscription).toMatchObject({
      access: true,
      access_type: 'trial',
      accepted_terms: false,
      available_messages: 500,
    })
  })
})
