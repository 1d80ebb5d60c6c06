/** Below 1024 px the page sidebar is gone: a compact header says which page's inbox is open. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox } from './inbox-support.ts'
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts.ts'

test('at 360 x 740 the inbox names its page, with picture and category, above the list', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await loginAsDemo(page)
  await openInbox(page)
  const header = page.getByTestId('page-header')
  await expect(header).toBeVisible()
  await expect(header.getByTestId('page-header-name')).toHaveText('Sunrise Market')
  await expect(header.locator('img')).toBeVisible()
  await expect(header.getByTestId('page-header-category')).not.toBeEmpty()
  const box = (await header.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(360)
  expect(box.height).toBeLessThanOrEqual(64)
  const name = (await header.getByTestId('page-header-name').boundingBox())!
  expect(name.x + name.width).toBeLessThanOrEqual(360)
  const list = (await page.getByTestId('conversation-list').boundingBox())!
  expect(list.y).toBeGreaterThanOrEqual(box.y + box.height - 1)
  // A chat on a phone keeps the screen for the conversation: the page's header steps aside while it is
  // open (the chat's header names the customer), and Back to the list brings it back.
  await page.getByTestId('conversation-row').first().click()
  await expect(page.getByTestId('chat-view')).toBeVisible()
  await expect(header).toBeHidden()
  await page.getByRole('button', { name: 'Back to conversations' }).click()
  await expect(header).toBeVisible()
})

test('at desktop width the page sidebar names the page and the compact header is hidden', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await loginAsDemo(page)
  await openInbox(page)
  await expect(page.getByTestId('page-sidebar')).toBeVisible()
  await expect(page.getByTestId('page-header')).toBeHidden()
})

test('a returning owner opens the inbox at 360 x 740 and nothing on it moves or fails as it fills in', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await loginAsDemo(page)
  await openInbox(page)
  await recordLayoutShifts(page)
  const failed: string[] = []
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`)
  })
  // The route opened afresh, as from the home screen: the page's details and its entry arrive after the list.
  await page.reload()
  const header = page.getByTestId('page-header')
  await expect(header.getByTestId('page-header-category')).not.toBeEmpty({ timeout: 20_000 })
  await expect(page.getByTestId('conversation-row').first()).toBeVisible()
  await expect(page.getByTestId('marketing-entry-header')).toBeVisible()
  const box = (await header.boundingBox())!
  const list = (await page.getByTestId('conversation-list').boundingBox())!
  expect(list.y).toBeGreaterThanOrEqual(box.y + box.height - 1)
  await page.waitForTimeout(1_000)
  const shifts = await layoutShifts(page)
  // A count badge growing by a digit nudges only itself (a few millionths); the lines and the list stay put.
  const total = shifts.reduce((sum, s) => sum + s.value, 0)
  expect(total, JSON.stringify(shifts)).toBeLessThan(0.001)
  expect(failed).toEqual([])
  // A chat opened from a link, as a notification opens it: its page is entered before anything of the page
  // is asked of the API.
  const id = await page.getByTestId('conversation-row').first().getAttribute('data-conversation-id')
  await page.goto(`${new URL(page.url()).pathname}?c=${id}`)
  await expect(page.getByTestId('composer')).toBeVisible({ timeout: 20_000 })
  await page.waitForTimeout(1_000)
  expect(failed).toEqual([])
})
