/**
 * A bulk job survives what real networks and browsers do to it: network cuts, a reload, the sending tab
 * closing, throttling and server errors. Pacing is scaled to 0.2 so jobs last long enough to interrupt.
 */
import {
  bulkTest,
  expect,
  login,
  pages,
  sentLog,
  setFaults,
  startSend,
  verifyJob,
  waitForCard,
  waitForSent,
} from './bulk-support.ts'

const test = bulkTest({ PACING_SCALE: '0.2' })

test.beforeEach(async ({ page }) => {
  await login(page)
})

test('the network cut twice in the middle of a job: it waits for the connection and finishes', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const check = await startSend(page, baseURL!, 'Cut twice')
  await waitForSent(baseURL!, 'Cut twice', 4)
  await setFaults(baseURL!, { offline: true })
  await waitForCard(page, 'waiting_connection', 30_000)
  await expect(page.getByTestId('bulk-card-state').first()).toHaveText('Waiting for connection')
  await setFaults(baseURL!, { offline: false })
  await waitForCard(page, 'running', 60_000)
  await waitForSent(baseURL!, 'Cut twice', 10)
  await context.setOffline(true)
  await waitForCard(page, 'waiting_connection', 30_000)
  await context.setOffline(false)
  await waitForCard(page, 'finished', 120_000)
  await verifyJob(page, check)
})

test('a reload in the middle of a job resumes it without sending anyone twice', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const check = await startSend(page, baseURL!, 'Reload me')
  await waitForSent(baseURL!, 'Reload me', 5)
  await page.reload()
  await waitForCard(page, 'finished', 90_000)
  await verifyJob(page, check)
})

test('a reload right after the first send takes its own lease back at once: sending resumes within seconds, everyone once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const text = 'Reload at once'
  const check = await startSend(page, baseURL!, text)
  await waitForSent(baseURL!, text, 1, 30_000)
  await page.reload()
  const reloaded = Date.now()
  const before = (await sentLog(baseURL!)).filter((s) => s.text?.startsWith(text)).length
  await waitForSent(baseURL!, text, before + 1, 60_000)
  const waited = Date.now() - reloaded
  console.log(`sending resumed ${waited} ms after the reload`)
  // Not the lease's 30 s lapse: the same browser profile is the holder still.
  expect(waited).toBeLessThan(8_000)
  await waitForCard(page, 'finished', 90_000)
  await verifyJob(page, check)
})

test('a reload while the first lease is on its way back takes that lease at once: no wait for it to lapse, everyone once', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const text = 'Lease lost in flight'
  // The server grants the first lease, but its answer never reaches the worker: the tab reloads first.
  let granted!: () => void
  const grant = new Promise<void>((resolve) => (granted = resolve))
  let first = true
  await context.route('**/api/v2/messages/*/lease', async (route) => {
    if (!first) return route.continue()
    first = false
    await route.fetch()
    granted()
    await page.waitForEvent('load')
    await route.abort().catch(() => undefined)
  })
  const check = await startSend(page, baseURL!, text)
  await grant
  expect((await sentLog(baseURL!)).filter((s) => s.text?.startsWith(text))).toHaveLength(0)
  await page.reload()
  const reloaded = Date.now()
  await waitForSent(baseURL!, text, 1, 90_000)
  const waited = Date.now() - reloaded
  console.log(`the first send came ${waited} ms after the reload`)
  // Not the lease's 30 s lapse: the same browser profile is the holder still.
  expect(waited).toBeLessThan(8_000)
  await waitForCard(page, 'finished', 90_000)
  await verifyJob(page, check)
})

test('when the sending tab closes, a second open tab takes over and finishes', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const second = await context.newPage()
  await second.goto('/')
  await expect(second.getByTestId('app-layout')).toBeVisible({ timeout: 20_000 })
  const check = await startSend(page, baseURL!, 'Hand over')
  await waitForSent(baseURL!, 'Hand over', 5)
  await page.close()
  await waitForCard(second, 'finished', 90_000)
  await verifyJob(second, check)
})

test('throttling and server errors slow the job down but everyone is reached once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const check = await startSend(page, baseURL!, 'Under faults')
  await waitForSent(baseURL!, 'Under faults', 3)
  await setFaults(baseURL!, { rate_limit: true })
  await waitForCard(page, 'rate_limited', 30_000)
  await expect(page.getByTestId('bulk-card-state').first()).toHaveText('Rate limited, will retry')
  await setFaults(baseURL!, { rate_limit: false, fail_rate: 0.2 })
  await waitForSent(baseURL!, 'Under faults', 15, 90_000)
  await setFaults(baseURL!, { fail_rate: 0 })
  await waitForCard(page, 'finished', 120_000)
  await verifyJob(page, check)
})

test('an expired page token pauses the job until a tab refreshes it, then it finishes', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const check = await startSend(page, baseURL!, 'New token')
  await waitForSent(baseURL!, 'New token', 4)
  const res = await fetch(`${baseURL}/sandbox/tokens/expire`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: pages.small }),
  })
  expect(((await res.json()) as { expired: number }).expired).toBeGreaterThan(0)
  await waitForCard(page, 'finished', 90_000)
  await verifyJob(page, check)
})
