/** Security headers on the app, the API and static files, and a login page that breaks none of its policy. */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  )
}

const paths = {
  'the app': '/',
  'an API response': '/api/v2/config',
  'an API error': '/api/v2/user',
  'a static asset': '/manifest.webmanifest',
  'the service worker': '/sw.js',
}

for (const [label, path] of Object.entries(paths)) {
  test(`${label} carries the strict security headers`, async ({ request }) => {
    const res = await request.get(path)
    expect(res.status()).toBeLessThan(500)
    const h = res.headers()
    const csp = directives(h['content-security-policy'] ?? '')
    const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? []
    expect(scriptSrc.length).toBeGreaterThan(0)
    expect(scriptSrc).not.toContain("'unsafe-inline'")
    expect(scriptSrc).not.toContain("'unsafe-eval'")
    for (const values of csp.values()) expect(values).not.toContain("'unsafe-eval'")
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(csp.get('object-src')).toEqual(["'none'"])
    expect(h['x-content-type-options']).toBe('nosniff')
    expect(h['referrer-policy']).toMatch(
      /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
    )
  })
}

test('a hashed asset of the build carries the headers too', async ({ request }) => {
  const html = await (await request.get('/')).text()
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
  expect(asset).toBeTruthy()
  const h = (await request.get(asset!)).headers()
  expect(h['x-content-type-options']).toBe('nosniff')
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'")
})

test('HSTS is sent behind https and never over plain http', async ({ request }) => {
  const plain = await request.get('/')
  expect(plain.headers()['strict-transport-security']).toBeUndefined()
  const https = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } })
  expect(https.headers()['strict-transport-security']).toMatch(/max-age=\d{7,}/)
})

/** Collects every Content-Security-Policy violation the page reports, from its console and its own event. */
async function cspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Content-Security-Policy/i.test(msg.text()))
      violations.push(msg.text())
  })
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      )
    })
  })
  return violations
}

test('the login page loads without any Content-Security-Policy violation', async ({ page }) => {
  const violations = await cspViolations(page)
  await page.goto('/')
  await expect(page.getByRole('button', { name: /Continue with Facebook/i })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(violations).toEqual([])
})

// The inbox parses the server's answers with the contracts' schemas: parsing never tries to compile code
// (`new Function`), which the policy forbids (src/core/contracts/zod.ts).
test("the inbox reads and checks the server's answers without any Content-Security-Policy violation", async ({
  page,
}) => {
  const violations = await cspViolations(page)
  // The job records (the progress cards' list) are parsed once they arrive.
  const jobRecords = page.waitForResponse((r) => r.url().includes('/api/v2/messages?') && r.ok())
  await loginAsDemo(page)
  await page.getByTestId('page-card').first().click()
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await jobRecords
  await page.waitForLoadState('networkidle')
  expect(violations).toEqual([])
})
