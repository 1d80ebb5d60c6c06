/**
 * The product API against the real sandbox on one loopback port, as `npm start` composes them: login with a
 * sandbox token, the demo pages' trial and ban rules, the page-token exchange, and a checkout paid on the
 * sandbox's checkout page that activates the plan through the signed webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../src/core/constants/limits.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import {
  DEMO_SEED,
  demoUserToken,
  pageTokenOf as pageTokenFor,
  startSandboxStack,
  type SandboxStack,
} from './support/stack.ts'

const SECRET = 'whsec_integration'

describe('the API with the sandbox', () => {
  let stack: SandboxStack
  let base: string
  const ids = demoPageIds(DEMO_SEED)

  beforeAll(async () => {
    stack = await startSandboxStack({
      sandbox: { paymentWebhookUrl: '/api/v2/payments/webhook', paymentWebhookSecret: SECRET },
      app: {
        sandboxWebhookSecret: SECRET,
        demo: { bannedPageIds: [ids.banned], trialUsedPageIds: [ids.trialUsed] },
      },
    })
    base = stack.base
  })
  afterAll(() => stack.close())

  const json = (method: string, path: string, body?: unknown, token?: string) =>
    stack.json(method, path, body, token)
  const sandboxToken = (declined: string[] = []) => demoUserToken(stack, { declined })
  const loginDemo = async () => {
    const res = await json('POST', '/api/v2/login', { access_token: await sandboxToken() })
    expect(res.status).toBe(200)
    return (res.body.data as { token: string }).token
  }

  it('logs the demo user in by verifying the token with the sandbox Graph', async () => {
    const res = await json('POST', '/api/v2/login', { access_token: await sandboxToken() })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      user: { name: 'Dana Demo', subscription: { access_type: 'trial' } },
    })
  })

  it('refuses a login with a declined permission and a made-up token', async () => {
    const scopes = REQUIRED_PERMISSIONS.filter((p) => p !== 'pages_messaging')
    const token = (
      await json('POST', '/sandbox/token', { user: 'demo', scopes, declined: ['pages_messaging'] })
    ).body.access_token
    const declined = await json('POST', '/api/v2/login', { access_token: token })
    expect(declined.status).toBe(401)
    expect(declined.body.message).toMatch(/pages_messaging/)
    expect((await json('POST', '/api/v2/login', { access_token: 'EAAmadeup' })).status).toBe(401)
  })

  const pageTokenOf = (userToken: string, pageId: string) => pageTokenFor(stack, userToken, pageId)

  it("refuses the sandbox's banned and trial-used pages and accepts its others", async () => {
    const token = await loginDemo()
    const userToken = await sandboxToken()
    const page = async (id: string, name: string) =>
      (
        await json(
          'POST',
          '/api/v2/page',
          { id, name, access_token: await pageTokenOf(userToken, id) },
          token,
        )
      ).status
    expect(await page(ids.banned, 'Banned')).toBe(406)
    expect(await page(ids.trialUsed, 'Used')).toBe(406)
    expect(await page(ids.small, 'Kanha Bakery')).toBe(200)
  })

  it('extends a user token, and answers a valid page token for its own page', async () => {
    const token = await loginDemo()
    const userToken = await sandboxToken()
    const exchanged = await json('POST', '/api/v2/page/extend-token', { access_token: userToken }, token)
    expect(exchanged.status).toBe(200)
    expect(exchanged.body.accessToken).not.toBe(userToken)
    const page = { access_token: await pageTokenOf(userToken, ids.small) }
    const large = await pageTokenOf(userToken, ids.large)
    for (const [id, access_token] of [
      [ids.small, page.access_token],
      [ids.large, large],
    ] as const) {
      expect((await json('POST', '/api/v2/page', { id, name: 'Page', access_token }, token)).status).toBe(200)
    }
    const res = await json(
      'POST',
      '/api/v2/page/extend-token',
      { access_token: page.access_token, page_id: ids.small },
      token,
    )
    expect(res).toEqual({ status: 200, body: { accessToken: page.access_token } })
    const wrong = await json(
      'POST',
      '/api/v2/page/extend-token',
      { access_token: page.access_token, page_id: ids.large },
      token,
    )
    expect(wrong.status).toBe(422)
  })

  it('activates a plan paid on the sandbox checkout page and returns to the app', async () => {
    const token = await loginDemo()
    const checkout = await json(
      'POST',
      '/api/v2/user/subscriptions/checkout',
      {
        price_id: 'plan_small_business_monthly',
        success_url: `${base}/?success=true`,
        cancel_url: `${base}/?success=false`,
      },
      token,
    )
    const url = new URL((checkout.body.data as { url: string }).url)
    expect((await fetch(url)).status).toBe(200)
    const form = new URLSearchParams({
      session: url.searchParams.get('session')!,
      product: url.searchParams.get('product')!,
      amount: url.searchParams.get('amount')!,
      success_url: url.searchParams.get('success_url')!,
      cancel_url: url.searchParams.get('cancel_url')!,
    })
    const paid = await fetch(`${base}/sandbox/checkout/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(`${base}/?success=true`)
    const user = await json('GET', '/api/v2/user', undefined, token)
    expect((user.body.data as { subscription: unknown }).subscription).toMatchObject({
      access_type: 'paid',
      subscriptions_messages: 10_000,
    })
  })
})
