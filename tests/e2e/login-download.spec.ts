/**
 * The login route's whole download: every JavaScript response a signed-out visitor's browser receives in its
 * first 5 seconds on `/`, compressed as it travels (the server sends the precompressed copies). The bytes do
 * not depend on the machine's load, so the budget is exact. What the signed-in app needs (Dexie, the device's
 * data, the live stream, push) must wait for a session: no script holding the live stream's or push's code
 * arrives, and no call to their endpoints is made.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './support/fixtures.ts'

/** Marks of the signed-in-only code in the built files: the live stream, presence and push subscription. */
const SIGNED_IN_ONLY = ['/api/v2/events', '/api/v2/presence', '/api/v2/push/', 'pushManager']

/** kB (1000 bytes) of compressed JavaScript a signed-out visitor downloads in the first 5 seconds. */
const LOGIN_DOWNLOAD_BUDGET_KB = 77.5

test(`a signed-out visitor downloads at most ${LOGIN_DOWNLOAD_BUDGET_KB} kB of JavaScript in 5 seconds, none of it the live connection or push`, async ({
  page,
  context,
}) => {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  // Every request fresh from the network, as on a first visit.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const scripts = new Map<string, string>()
  const bytes = new Map<string, number>()
  cdp.on('Network.responseReceived', (e: { requestId: string; type: string; response: { url: string } }) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.response.url)
  })
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    bytes.set(e.requestId, e.encodedDataLength)
  })

  const calls: string[] = []
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    if (path.startsWith('/api/')) calls.push(path)
  })

  await page.goto('/')
  await expect(page.getByTestId('login-button')).toBeVisible()
  await page.waitForTimeout(5_000)

  // Nothing of the live connection or of push came: neither their code nor a call to their endpoints.
  expect(calls.filter((c) => SIGNED_IN_ONLY.some((m) => c.startsWith(m)))).toEqual([])
  const signedInCode = [...scripts.values()]
    .map((url) => new URL(url).pathname)
    .filter((path) => path.startsWith('/assets/'))
    .filter((path) => {
      const code = readFileSync(join('dist', path), 'utf8')
      return SIGNED_IN_ONLY.some((mark) => code.includes(mark))
    })
  expect(signedInCode).toEqual([])

  const files = [...scripts].map(([id, url]) => ({ url: new URL(url).pathname, bytes: bytes.get(id) ?? 0 }))
  const total = files.reduce((sum, f) => sum + f.bytes, 0)
  const report = files
    .sort((a, b) => b.bytes - a.bytes)
    .map((f) => `${(f.bytes / 1000).toFixed(1).padStart(6)} kB  ${f.url}`)
    .join('\n')
  console.log(`login route: ${(total / 1000).toFixed(1)} kB of JavaScript in 5 s\n${report}`)
  expect(total, report).toBeLessThanOrEqual(LOGIN_DOWNLOAD_BUDGET_KB * 1000)
})
