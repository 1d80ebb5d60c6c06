import { createHmac } from 'node:crypto'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type TestSandbox } from './test-support.ts'

let sb: TestSandbox
const webhook: { body: string; signature: string }[] = []
const hooks = Fastify({ logger: false })

beforeAll(async () => {
  hooks.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, body, done) => done(null, body))
  hooks.post('/hook', async (request) => {
    webhook.push({ body: request.body as string, signature: String(request.headers['stripe-signature']) })
    return { received: true }
  })
  const hookUrl = `${await hooks.listen({ port: 0, host: '127.0.0.1' })}/hook`
  sb = await startSandbox({
    paymentWebhookUrl: hookUrl,
    paymentWebhookSecret: 'whsec_test',
    publicUrl: 'http://app.test',
  })
})
afterAll(async () => {
  await sb.app.close()
  await hooks.close()
})

describe('the login dialog', () => {
  it('shows the app, the accounts and one checked box per requested permission, with no inline script', async () => {
    const res = await fetch(`${sb.url}/dialog/oauth?client_id=test-app&scope=email,pages_messaging&state=x`)
    const html = await res.text()
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(html).toContain('Pagecast')
    expect(html).toContain('Dana Demo')
    expect(html).toContain('Sam Second')
    expect(html).toMatch(/name="user" value="partner"> Ana Partner/)
    expect(html.match(/type="checkbox" name="scope" value="(email|pages_messaging)" checked/g)).toHaveLength(
      2,
    )
    // Drawn before its deferred script answers them: neither button can be pressed for nothing.
    expect(html).toMatch(/id="continue" disabled>Continue</)
    expect(html).toMatch(/id="cancel" disabled>Cancel</)
    expect(html).not.toMatch(/<script>|<script(?![^>]*src=)|\son[a-z]+=/)
    expect((await fetch(`${sb.url}/dialog/dialog.js`)).headers.get('content-type')).toMatch(/javascript/)
  })

  it('refuses another app id', async () => {
    expect((await fetch(`${sb.url}/dialog/oauth?client_id=other&scope=email`)).status).toBe(400)
  })

  it('answers like FB.login, records declined scopes and remembers the session for a silent status', async () => {
    const res = await fetch(`${sb.url}/dialog/grant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'test-app',
        user: 'second',
        granted: ['pages_show_list'],
        declined: ['email'],
      }),
    })
    const login = (await res.json()) as {
      status: string
      authResponse: { accessToken: string; userID: string; grantedScopes: string; signedRequest: string }
    }
    expect(login.status).toBe('connected')
    expect(login.authResponse.grantedScopes).toBe('public_profile,pages_show_list')
    const [sig, payload] = login.authResponse.signedRequest.split('.')
    expect(createHmac('sha256', 'test-secret').update(payload!).digest('base64url')).toBe(sig)
    expect(await sb.client.permissions(login.authResponse.accessToken)).toContainEqual({
      permission: 'email',
      status: 'declined',
    })
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/Path=\/sandbox; HttpOnly/)
    const status = (await (
      await fetch(`${sb.url}/login-status`, { headers: { cookie: cookie.split(';')[0]! } })
    ).json()) as typeof login
    expect(status.status).toBe('connected')
    expect(status.authResponse.userID).toBe(login.authResponse.userID)
    expect(status.authResponse.accessToken).not.toBe(login.authResponse.accessToken)
    expect(await (await fetch(`${sb.url}/login-status`)).json()).toEqual({
      status: 'unknown',
      authResponse: null,
    })
  })
})

describe('the checkout page', () => {
  const query = new URLSearchParams({
    session: 'cs_test_1',
    product: 'Pro monthly',
    amount: '29',
    success_url: 'http://app.test/?success=true',
    cancel_url: 'http://app.test/?success=false',
  })

  it('shows the product and the amount in USD with Pay and Cancel', async () => {
    const html = await (await fetch(`${sb.url}/checkout?${query}`)).text()
    expect(html).toContain('Pro monthly')
    expect(html).toContain('$29.00 USD')
    const more = await (
      await fetch(
        `${sb.url}/checkout?${query}&interval=month&discount=${encodeURIComponent('15% for 3 months')}`,
      )
    ).text()
    expect(more).toContain('Billed monthly')
    expect(more).toContain('Discount: 15% for 3 months')
    expect(html).toMatch(/>Pay</)
    expect(html).toMatch(/>Cancel</)
  })

  it('Pay posts a signed checkout.session.completed event and returns to success_url', async () => {
    const form = new URLSearchParams({
      session: 'cs_test_1',
      product: 'Pro monthly',
      amount: '29',
      success_url: 'http://app.test/?success=true',
    })
    const res = await fetch(`${sb.url}/checkout/pay`, { method: 'POST', body: form, redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('http://app.test/?success=true')
    const { body, signature } = webhook.at(-1)!
    const event = JSON.parse(body) as { id: string; type: string; data: { object: { id: string } } }
    expect(event).toMatchObject({ type: 'checkout.session.completed', data: { object: { id: 'cs_test_1' } } })
    expect(event.id).toMatch(/^evt_/)
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!
    expect(createHmac('sha256', 'whsec_test').update(`${t}.${body}`).digest('hex')).toBe(v1)
  })

  it('Cancel returns to cancel_url, and unsafe return URLs are refused', async () => {
    const res = await fetch(
      `${sb.url}/checkout/cancel?cancel_url=${encodeURIComponent('http://app.test/?success=false')}`,
      { redirect: 'manual' },
    )
    expect(res.headers.get('location')).toBe('http://app.test/?success=false')
    expect(
      (await fetch(`${sb.url}/checkout/cancel?cancel_url=javascript:alert(1)`, { redirect: 'manual' }))
        .status,
    ).toBe(400)
  })

  it("returns only to the product's own origin: another site is refused by the page, Pay and Cancel", async () => {
    const elsewhere = 'https://evil.example/?success=true'
    const page = new URLSearchParams({ ...Object.fromEntries(query), success_url: elsewhere })
    const shown = await fetch(`${sb.url}/checkout?${page}`)
    expect(shown.status).toBe(400)
    expect(await shown.text()).not.toContain('evil.example')
    const sent = webhook.length
    const pay = await fetch(`${sb.url}/checkout/pay`, {
      method: 'POST',
      body: new URLSearchParams({ session: 'cs_test_2', amount: '29', success_url: elsewhere }),
      redirect: 'manual',
    })
    expect(pay.status).toBe(400)
    expect(webhook.length).toBe(sent)
    for (const url of [elsewhere, '//evil.example/', '/\\evil.example/', 'http://app.test.evil.example/']) {
      const cancel = await fetch(`${sb.url}/checkout/cancel?cancel_url=${encodeURIComponent(url)}`, {
        redirect: 'manual',
      })
      expect(cancel.status).toBe(400)
    }
    const relative = await fetch(
      `${sb.url}/checkout/cancel?cancel_url=${encodeURIComponent('/?success=false')}`,
      {
        redirect: 'manual',
      },
    )
    expect(relative.headers.get('location')).toBe('http://app.test/?success=false')
  })
})
