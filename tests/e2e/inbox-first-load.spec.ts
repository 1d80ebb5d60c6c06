/**
 * A signed-in owner opening the inbox on a phone with nothing saved on the device (as after clearing the
 * browser's data, and as a performance audit opens it): nothing on the screen moves while the list, its counts,
 * the labels and the sync's progress fill in. The browser's own layout-shift total must stay exactly zero.
 */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './inbox-support.ts'
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts.ts'

test('the inbox fills in on a first load at 412 x 823 without moving anything', async ({
  page,
  browser,
  baseURL,
}) => {
  await loginAsDemo(page)
  // Only the session's cookies carry over: a fresh context has no local database, no worker, no cache.
  const cookies = await page.context().cookies()
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  })
  try {
    await context.addCookies(cookies)
    const fresh = await context.newPage()
    await recordLayoutShifts(fresh)
    await fresh.goto(`/${pages.large}`)
    await expect(fresh.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
    // Everything that arrives later has arrived: the whole list synced (its counts final) and the labels.
    await expect(fresh.getByTestId('sync-status')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 })
    await expect(fresh.getByTestId('label-filter-chip').first()).toBeVisible()
    const shifts = await layoutShifts(fresh)
    expect(shifts).toEqual([])
  } finally {
    await context.close()
  }
})
