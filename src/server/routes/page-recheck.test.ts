/**
 * A page token refused in a page call makes the server ask the network about the caller's binding: a token
 * refused for a lost role revokes it (403 `page_access_revoked` from then on, until the page is opened again),
 * a token whose session merely ended (expired, 463) leaves it standing. Also the scheduled round: only the
 * bindings whose last check is old enough are asked about. On PGlite, and on PostgreSQL when TEST_DATABASE_URL
 * is set.
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { GraphApi } from '../graph/graph-api.ts'
import {
  createMessage,
  fakeGraph,
  type LoggedIn,
  login,
  onEveryStore,
  pageToken,
  registerPage,
  startTestApp,
  type TestApp,
} from '../testing/harness.ts'
import { judgeToken } from './page-access.ts'

onEveryStore('a page binding checked again with the network', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  /** Tokens the fake network now refuses: for a lost role, or as expired. */
  const roleLost = new Set<string>()
  const expired = new Set<string>()
  let asked: string[] = []
  const graph: GraphApi = {
    ...fakeGraph,
    async debugToken(token) {
      asked.push(token)
      if (roleLost.has(token))
        return {
          is_valid: false,
          error: { code: 190, message: 'The user must be an administrator of the page.' },
        }
      if (expired.has(token))
        return { is_valid: false, error: { code: 190, subcode: 463, message: 'Session has expired.' } }
      return fakeGraph.debugToken(token)
    },
  }

  beforeEach(async () => {
    roleLost.clear()
    expired.clear()
    t = await startTestApp(kind, { graph, pageChecks: { everyMs: 100, batch: 10 } })
    owner = await login(t.app, '5401')
    await registerPage(t.app, owner, '940')
    asked = []
  })
  afterEach(() => t.close())

  const token = () => pageToken('940', owner.user.facebook_id)
  const sync = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/v2/pages/940/marketing/sync',
      headers: owner.auth,
      payload: { page_token: token() },
    })
  const createJob = () => createMessage(t.app, owner, '940')

  it('revokes the binding when the page token is refused for a lost role; opening the page again restores it', async () => {
    roleLost.add(token())
    expect((await sync()).statusCode).toBe(422)
    const refused = await createJob()
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'page_access_revoked' })
    roleLost.clear()
    await registerPage(t.app, owner, '940')
    expect((await createJob()).statusCode).toBe(201)
  })

  it('leaves the binding standing when the token only expired', async () => {
    expired.add(token())
    expect((await sync()).statusCode).toBe(422)
    expect((await createJob()).statusCode).toBe(201)
  })

  it('asks on schedule only about bindings whose last check is old enough, and revokes a lost one', async () => {
    roleLost.add(token())
    await new Promise((r) => setTimeout(r, 500))
    expect(asked).toEqual([])
    await t.app.store.query("UPDATE user_pages SET checked_at = now() - interval '61 minutes'")
    await expect
      .poll(async () => (await createJob()).statusCode, { timeout: 10_000, interval: 100 })
      .toBe(403)
    expect(asked).toContain(token())
  })
})

it('judges a refused token by its subcode: an ended session says nothing about the role', () => {
  const expected = { appId: 'app', pageId: '1', facebookId: '2' }
  expect(judgeToken({ is_valid: false, error: { code: 190, subcode: 463, message: '' } }, expected)).toBe(
    'token_dead',
  )
  expect(judgeToken({ is_valid: false, error: { code: 190, message: '' } }, expected)).toBe('revoked')
  expect(
    judgeToken({ is_valid: true, app_id: 'app', type: 'PAGE', profile_id: '1', user_id: '2' }, expected),
  ).toBe('holds')
  expect(
    judgeToken({ is_valid: true, app_id: 'app', type: 'PAGE', profile_id: '1', user_id: '3' }, expected),
  ).toBe('unknown')
})
