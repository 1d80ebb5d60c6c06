/**
 * A phone owner's inbox at 360 x 740: the filter finds a conversation never scrolled to (the list syncs the
 * whole page into the device in the background and says how far it got), unread counts show on the rows, on
 * the page and on its home card, and opening a conversation clears them here and on the network (mark_seen).
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, pages, rowCount } from './inbox-support.ts'

const VIEWPORT = { width: 360, height: 740 }

async function expectInViewport(locator: Locator): Promise<void> {
  await expect(locator).toBeVisible()
  const box = (await locator.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width)
  expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORT.height)
}

/** A screenshot of the step in the test artifacts. */
async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `tests/artifacts/screenshots/inbox-search-unread-${name}.png` })
}

const countOf = async (badge: Locator) => Number(await badge.getAttribute('data-count'))

interface SenderAction {
  page_id: string
  recipient_id: string
  sender_action: string
}

test('search reaches every conversation of the large page; unread counts show and clear', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(VIEWPORT)
  await loginAsDemo(page)

  // Home: the page's card carries the network's unread count.
  const largeCard = page.locator(`[data-testid="page-card"][href="/${pages.large}"]`)
  const cardBadge = largeCard.getByTestId('page-card-unread')
  await expectInViewport(cardBadge)
  const networkUnread = await countOf(cardBadge)
  expect(networkUnread).toBeGreaterThan(0)

  await openInbox(page)
  const status = page.getByTestId('sync-status')
  await expectInViewport(status)

  // "Paolo Wijaya" is far down the list (the last one around row 1,275): the filter finds every one of them
  // once the sync has stored the whole page, without a scroll.
  await page.getByTestId('conversation-filter').fill('Paolo Wijaya')
  await expect(status).toHaveText(/All 1,280 conversations synced/, { timeout: 60_000 })
  const rows = page.getByTestId('conversation-row')
  // Eight matches in the (virtualised) list: its height is eight rows.
  await expect.poll(() => rowCount(page)).toBe(8)
  await snap(page, 'search-found')
  const names = await rows.evaluateAll((els) => els.map((e) => e.querySelector('span.truncate')?.textContent))
  expect(new Set(names)).toEqual(new Set(['Paolo Wijaya']))

  // The page's count (the compact header at this width) is the sum over the whole synced page.
  const pageBadge = page.getByTestId('page-header-unread')
  await expectInViewport(pageBadge)
  await expect.poll(() => countOf(pageBadge)).toBe(networkUnread)

  const unreadRow = rows.filter({ has: page.getByTestId('conversation-unread') }).first()
  const rowBadge = unreadRow.getByTestId('conversation-unread')
  await expectInViewport(rowBadge)
  const rowUnread = await countOf(rowBadge)
  const conversationId = (await unreadRow.getAttribute('data-conversation-id'))!

  await unreadRow.click()
  await expect(page.getByTestId('chat-view')).toBeVisible()
  await expect.poll(() => countOf(pageBadge)).toBe(networkUnread - rowUnread)
  await snap(page, 'conversation-opened')
  await expect
    .poll(async () => {
      const res = await fetch(`${baseURL}/sandbox/sender-actions`)
      return ((await res.json()) as { data: SenderAction[] }).data.map(
        (a) => `${a.page_id}:${a.sender_action}`,
      )
    })
    .toEqual([`${pages.large}:mark_seen`])

  // Back in the list the row has no count any more.
  await page.getByRole('button', { name: 'Back to conversations' }).click()
  const openedRow = page.locator(`[data-testid="conversation-row"][data-conversation-id="${conversationId}"]`)
  await expect(openedRow).toBeVisible()
  await expect(openedRow.getByTestId('conversation-unread')).toHaveCount(0)

  // Home: the card now goes by the device's count, which knows the conversation was read.
  await page.goto('/')
  await expectInViewport(cardBadge)
  await expect.poll(() => countOf(cardBadge)).toBe(networkUnread - rowUnread)
  await snap(page, 'home-after')
})
