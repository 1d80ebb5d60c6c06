/**
 * A job whose page no longer hands out a token (the owner lost the page's role) waits quietly: the tab asks
 * the accounts list a few times a minute at most, the card says what to do, and once the page is back the
 * job finishes with nobody missed and nobody sent twice.
 */
import {
  bulkTest,
  expect,
  login,
  pages,
  startSend,
  verifyJob,
  waitForCard,
  waitForSent,
} from './bulk-support.ts'

const test = bulkTest({ PACING_SCALE: '0.2' })

/** How long the calls are counted once the job waits for a token. */
const MEASURE_MS = 20_000

/** Expires the small page's tokens and lists it without one (revoke) or with one again. */
async function pageRole(baseURL: string, revoke: boolean): Promise<void> {
  await fetch(`${baseURL}/sandbox/tokens/expire`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: pages.small, revoke }),
  })
}

test('a job whose page lost its token asks a few times, says why, and finishes once the page is back', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000)
  await login(page)
  const check = await startSend(page, baseURL!, 'Lost role')
  await waitForSent(baseURL!, 'Lost role', 3)
  // Every request of the app to the network: the Graph API and the silent login status.
  const calls: string[] = []
  context.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/sandbox/graph/') || pathname === '/sandbox/login-status')
      calls.push(`${request.method()} ${pathname.replace(/^\/sandbox\/graph\/v[\d.]+/, '')}`)
  })
  await pageRole(baseURL!, true)
  const card = await waitForCard(page, 'needs_signin', 30_000)
  const from = calls.length
  await page.waitForTimeout(MEASURE_MS)
  const measured = calls.slice(from)
  const accounts = measured.filter((c) => c === 'GET /me/accounts').length
  console.log(
    `network calls in ${MEASURE_MS / 1000} s without a token: ${measured.length}, /me/accounts: ${accounts}`,
  )
  // The sender asks at 0 s and after 2.5-5, 7.5-15 and 17.5-35 s (5 s doubling, jittered): at most 4.
  expect(accounts).toBeLessThanOrEqual(6)
  expect(measured.length).toBeLessThanOrEqual(12)
  await expect(card.getByTestId('bulk-card-state')).toHaveText('Reconnect this page to continue')

  // The page comes back; the owner pauses and resumes, and the job asks for the token at once.
  await pageRole(baseURL!, false)
  await card.getByRole('button', { name: 'Pause' }).click()
  await waitForCard(page, 'paused', 30_000)
  await card.getByRole('button', { name: 'Resume' }).click()
  await waitForCard(page, 'finished', 120_000)
  await verifyJob(page, check)
})
