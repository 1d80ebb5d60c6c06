import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, startTestApp, testConfig } from '../testing/harness.ts'
import { maskUrl } from './logging.ts'
import { contentSecurityPolicy } from './security.ts'

const directives = (csp: string) =>
  Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]))

describe('the content security policy', () => {
  it('allows only our own origin with the sandbox, with no inline script or style', () => {
    const d = directives(contentSecurityPolicy(testConfig()))
    expect(d['default-src']).toEqual(["'self'"])
    expect(d['script-src']).toEqual(["'self'"])
    expect(d['style-src']).toEqual(["'self'"])
    expect(d['connect-src']).toEqual(["'self'"])
    expect(d['object-src']).toEqual(["'none'"])
    expect(d['frame-ancestors']).toEqual(["'none'"])
    for (const key of ['base-uri', 'form-action', 'worker-src', 'manifest-src'])
      expect(d[key]).toEqual(["'self'"])
    expect(contentSecurityPolicy(testConfig())).not.toMatch(/unsafe-(inline|eval)/)
  })

  it('adds the network SDK, the Graph and its picture CDN when the real network is used', () => {
    const d = directives(
      contentSecurityPolicy(testConfig({ SANDBOX: 'false', GRAPH_URL: 'https://graph.facebook.com' })),
    )
    expect(d['script-src']).toEqual(["'self'", 'https://connect.facebook.net'])
    expect(d['connect-src']).toContain('https://graph.facebook.com')
    expect(d['img-src']).toEqual(
      expect.arrayContaining([
        "'self'",
        'data:',
        'blob:',
        'https://graph.facebook.com',
        'https://*.fbcdn.net',
      ]),
    )
  })
})

describe('headers and the static app', () => {
  let t: TestApp
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-static-test-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Pagecast</title>')
    writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("install", () => {})')
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)')
    t = await startTestApp('pglite', {}, { STATIC_DIR: dir })
  })
  afterAll(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sets the security headers on every response, errors included', async () => {
    for (const url of ['/', '/api/v2/config', '/api/v2/user', '/api/v2/missing', '/assets/index-abc123.js']) {
      const res = await t.app.inject({ url })
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'")
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
      expect(res.headers['strict-transport-security']).toBeUndefined()
    }
  })

  it('sets HSTS only behind https, believing only a nearby proxy', async () => {
    const res = await t.app.inject({ url: '/api/v2/config', headers: { 'x-forwarded-proto': 'https' } })
    expect(res.headers['strict-transport-security']).toContain('max-age=')
    const far = await t.app.inject({
      url: '/api/v2/config',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(far.headers['strict-transport-security']).toBeUndefined()
  })

  it('marks answers about a user as never to be stored', async () => {
    expect((await t.app.inject({ url: '/api/v2/user' })).headers['cache-control']).toBe('no-store')
  })

  it('echoes a plain request id and replaces an odd one', async () => {
    expect(
      (await t.app.inject({ url: '/api/v2/health', headers: { 'x-request-id': 'abc-123' } })).headers[
        'x-request-id'
      ],
    ).toBe('abc-123')
    const odd = await t.app.inject({ url: '/api/v2/health', headers: { 'x-request-id': 'a b\u00e9' } })
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('serves index.html and sw.js for revalidation and hashed assets as immutable', async () => {
    const index = await t.app.inject({ url: '/' })
    expect(index.statusCode).toBe(200)
    expect(index.headers['cache-control']).toBe('no-cache')
    expect((await t.app.inject({ url: '/sw.js' })).headers['cache-control']).toBe('no-cache')
    expect((await t.app.inject({ url: '/assets/index-abc123.js' })).headers['cache-control']).toContain(
      'immutable',
    )
  })

  it('answers app navigations with index.html, and missing files and API routes with 404', async () => {
    for (const url of ['/123456', '/plans', '/account/billing?x=1']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } })
      expect(res.statusCode, url).toBe(200)
      expect(res.body).toContain('<title>Pagecast</title>')
    }
    expect((await t.app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404)
    const api = await t.app.inject({ url: '/api/v2/nothing/here' })
    expect(api.statusCode).toBe(404)
    expect(api.json().message).toBeTruthy()
    expect((await t.app.inject({ url: '/sandbox/nothing' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'POST', url: '/plans' })).statusCode).toBe(404)
  })
})

describe('source maps', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-maps-test-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Pagecast</title>')
    writeFileSync(
      join(dir, 'assets', 'index-abc123.js'),
      'console.log(1)\n//# sourceMappingURL=index-abc123.js.map',
    )
    writeFileSync(join(dir, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"]}')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('are never served in production', async () => {
    const t = await startTestApp(
      'pglite',
      {},
      {
        STATIC_DIR: dir,
        NODE_ENV: 'production',
        GRAPH_URL: 'https://graph.facebook.com',
        FB_APP_SECRET: 'a-real-app-secret',
        WEBHOOK_VERIFY_TOKEN: 'a-verify-token-of-its-own',
        SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret',
      },
    )
    try {
      for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.js.map?v=1']) {
        const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } })
        expect(res.statusCode, url).toBe(404)
        expect(res.body, url).not.toContain('sources')
      }
      for (const url of ['/assets/index-abc123.js.m%61p', '/assets/index-abc123.js%2Emap'])
        expect((await t.app.inject({ url })).body, url).not.toContain('sources')
      expect((await t.app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200)
    } finally {
      await t.close()
    }
  })

  it('are served in development', async () => {
    const t = await startTestApp('pglite', {}, { STATIC_DIR: dir, NODE_ENV: 'development' })
    try {
      const res = await t.app.inject({ url: '/assets/index-abc123.js.map' })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('sources')
    } finally {
      await t.close()
    }
  })
})

describe('an internal failure', () => {
  it('answers 500 with a bare message and no internals', async () => {
    const t = await startTestApp()
    await t.app.store.close()
    const res = await t.app.inject({
      url: '/api/v2/user',
      headers: { authorization: `Bearer ${'A'.repeat(43)}` },
    })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ message: 'Internal Error' })
    await t.app.close().catch(() => undefined)
  })
})

describe('without a built app', () => {
  it('answers / with a clear 503', async () => {
    const t = await startTestApp()
    try {
      const res = await t.app.inject({ url: '/' })
      expect(res.statusCode).toBe(503)
      expect(res.body).toMatch(/not built/)
    } finally {
      await t.close()
    }
  })
})

describe('the logs', () => {
  it('carry request ids and never a token, an Authorization header or a cookie', async () => {
    const lines: string[] = []
    const t = await startTestApp(
      'pglite',
      { logStream: { write: (l) => void lines.push(l) } },
      { LOG_LEVEL: 'trace' },
    )
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/login',
        payload: { access_token: 'fb:4242' },
        headers: { 'x-request-id': 'req-77' },
      })
      const token = res.json().data.token as string
      await t.app.inject({
        url: '/api/v2/user',
        headers: { authorization: `Bearer ${token}`, cookie: `pagecast_session=${token}` },
      })
      await t.app.inject({ url: '/sandbox/graph/v25.0/me?access_token=EAAsecret' })
      const all = lines.join('')
      expect(all).toContain('"reqId":"req-77"')
      expect(all).toContain('access_token=[redacted]')
      for (const secret of [token, 'fb:4242', 'EAAsecret', 'Bearer']) expect(all).not.toContain(secret)
    } finally {
      await t.close()
    }
  })
})

describe('logged URLs', () => {
  it('never carry a token', () => {
    expect(maskUrl('/sandbox/graph/v25.0/me?fields=id&access_token=EAAB123&x=1')).toBe(
      '/sandbox/graph/v25.0/me?fields=id&access_token=[redacted]&x=1',
    )
    expect(maskUrl('/oauth?client_secret=s&fb_exchange_token=t')).toBe(
      '/oauth?client_secret=[redacted]&fb_exchange_token=[redacted]',
    )
  })
})
