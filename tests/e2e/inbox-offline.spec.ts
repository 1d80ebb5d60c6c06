/** The inbox on a bad connection: cached reading, the reply outbox, exactly one delivery. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, sentLog } from './inbox-support.ts'

// The offline reload is answered by the service worker.
test.use({ serviceWorkers: 'allow' })

test.beforeEach(async ({ page }) => {
  await loginAsDemo(page)
})

test('a reply written offline shows as pending and is delivered exactly once when back online', async ({
  page,
  context,
  baseURL,
}) => {
  await openInbox(page)
  await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'standard')
  await context.setOffline(true)
  await expect(page.getByTestId('offline-indicator')).toBeVisible()
  await page.getByTestId('reply-text').fill('Written on the bus')
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('pending-reply').filter({ hasText: 'Written on the bus' })).toBeVisible()
  await expect(page.getByTestId('reply-text')).toHaveValue('')
  expect(await sentLog(baseURL!)).toEqual([])

  await context.setOffline(false)
  await expect(page.getByTestId('pending-reply')).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByTestId('chat-message').filter({ hasText: 'Written on the bus' })).toBeVisible()
  await page.waitForTimeout(1_000)
  expect((await sentLog(baseURL!)).filter((s) => s.text === 'Written on the bus')).toHaveLength(1)
})

test.describe('with the answer of a send lost on the way', () => {
  // page.route does not see requests a service worker handles; Playwright advises blocking them with routes.
  test.use({ serviceWorkers: 'block' })

  test('a send whose answer was lost is found in the conversation and not sent again', async ({
    page,
    context,
    baseURL,
  }) => {
    await openInbox(page)
    await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'standard')
    // The network takes the message, but the answer never reaches the app.
    await page.route('**/sandbox/graph/**/messages?**', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await page.getByTestId('reply-text').fill('Did this arrive?')
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('pending-reply').filter({ hasText: 'Did this arrive?' })).toBeVisible()
    await expect(page.getByTestId('pending-reply')).toHaveAttribute('data-state', 'sending')
    // Removing the route while its handler still runs would let the request through a second time.
    await page.unrouteAll({ behavior: 'wait' })

    // The connection "returns": the outbox reconciles before any retry.
    await context.setOffline(true)
    await context.setOffline(false)
    await expect(page.getByTestId('pending-reply')).toHaveCount(0, { timeout: 15_000 })
    await page.waitForTimeout(1_000)
    expect((await sentLog(baseURL!)).filter((s) => s.text === 'Did this arrive?')).toHaveLength(1)
  })
})

test('the inbox and an opened chat stay readable after a reload while offline', async ({ page, context }) => {
  await openInbox(page)
  const firstName = (await page.getByTestId('chat-customer-name').textContent())!
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
  // Let the service worker take control, so the shell itself is available offline.
  await page
    .waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 })
    .catch(() => undefined)
  await page.reload()
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByTestId('offline-indicator')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('conversation-row').first()).toBeVisible()
  await expect(page.getByTestId('chat-customer-name')).toHaveText(firstName)
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
})
