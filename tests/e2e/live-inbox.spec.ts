/**
 * The live inbox: the network's webhooks reach the open app over its event stream, without a reload, in every
 * tab; an open chat appends and reads the message; the page's replies show delivered and read; a bulk card
 * counts its receipts. Arrival delays are measured from the moment the customer writes (the sandbox then sends
 * the webhook) and reported, not judged against a clock; each tab's is measured after the tabs before it.
 */
import type { Locator, Page } from '@playwright/test'
import {
  bulkTest,
  composeAndSend,
  expect,
  openWizard,
  sentLog,
  setFaults,
  waitForCard,
} from './bulk-support.ts'
import { openInbox, pages } from './inbox-support.ts'
import {
  cachedConversation,
  cachedPageUnread,
  customerWrites,
  newCustomerWrites,
  streamOpen,
} from './live-support.ts'
import { loginAsDemo } from './support/login.ts'
import { badgeCount } from './support/badge.ts'
import { controlledByServiceWorker } from './support/service-worker.ts'

const test = bulkTest()

// The cache and the stream are followed under the service worker, as an installed app runs.
test.use({ serviceWorkers: 'allow' })
const PHONE = { width: 360, height: 740 }
/** A generous bound: the stream delivers in well under a second; a loaded machine must not fail the test. */
const ARRIVAL_TIMEOUT = 20_000

const rows = (page: Page) => page.getByTestId('conversation-row')

/** `inner` lies inside `outer` (boxes in CSS pixels). */
async function expectInside(inner: Locator, outer: Locator) {
  const a = (await inner.boundingBox())!
  const b = (await outer.boundingBox())!
  expect(a.x).toBeGreaterThanOrEqual(b.x - 0.5)
  expect(a.y).toBeGreaterThanOrEqual(b.y - 0.5)
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 0.5)
  expect(a.y + a.height).toBeLessThanOrEqual(b.y + b.height + 0.5)
}

/** Signs the demo owner in at phone width and opens the small page's inbox with its event stream open. */
async function openLiveInboxOnPhone(page: Page) {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await streamOpen(page)
}

function report(name: string, ms: number) {
  test.info().annotations.push({ type: 'arrival', description: `${name}: ${ms} ms after the customer wrote` })
  console.log(`live-inbox: ${name} ${ms} ms after the customer wrote`)
}

test('a live customer message moves its conversation to the top, unread, in two open tabs and in the cache', async ({
  page,
  context,
  baseURL,
}) => {
  await openLiveInboxOnPhone(page)
  // The second tab is wide: the list beside the first conversation's chat.
  const second = await context.newPage()
  await second.setViewportSize({ width: 1280, height: 800 })
  await openInbox(second, pages.small)
  await streamOpen(second)
  const chatName = second.getByTestId('chat-customer-name')
  await expect(chatName).not.toBeEmpty()
  const shownChat = await chatName.textContent()

  const id = (await rows(page).nth(4).getAttribute('data-conversation-id'))!
  const before = (await cachedConversation(page, pages.small, id))!
  // The page's unread count: in the compact header on the phone, in the sidebar on the wide tab.
  const headerBadge = page.getByTestId('page-header').getByTestId('page-header-unread')
  const sidebarBadge = second.getByTestId('page-sidebar').getByTestId('page-unread')
  const pageUnread = await badgeCount(headerBadge)
  expect(await badgeCount(sidebarBadge)).toBe(pageUnread)
  const text = `Live ${Date.now() % 100_000}`
  const sentAt = Date.now()
  await customerWrites(baseURL!, pages.small, before.customerId, text)

  for (const [name, tab] of [
    ['first tab', page],
    ['second tab', second],
  ] as const) {
    await expect
      .poll(() => rows(tab).first().getAttribute('data-conversation-id'), {
        timeout: ARRIVAL_TIMEOUT,
        intervals: [50],
      })
      .toBe(id)
    report(name, Date.now() - sentAt)
    const top = rows(tab).first()
    await expect(top.getByTestId('conversation-snippet')).toHaveText(text)
    // The row's snippet and time stay inside the row at phone width.
    await expectInside(top.getByTestId('conversation-snippet'), top)
    await expectInside(top.locator('time'), top)
    // The row's unread badge shows one more, inside the row.
    const rowBadge = top.getByTestId('conversation-unread')
    await expect(rowBadge).toHaveAttribute('data-count', String(before.unreadCount + 1))
    await expectInside(rowBadge, top)
  }
  // The page's count rose by one on both tabs, its badge inside the header (phone) or the sidebar (wide).
  await expect(headerBadge).toHaveAttribute('data-count', String(pageUnread + 1))
  await expectInside(headerBadge, page.getByTestId('page-header'))
  await expect(sidebarBadge).toHaveAttribute('data-count', String(pageUnread + 1))
  await expectInside(sidebarBadge, second.getByTestId('page-sidebar'))
  // The chat the owner was reading stays on screen: the list moved, not the chat.
  await expect(chatName).toHaveText(shownChat!)
  // The local database has it: an offline reload shows the same.
  expect(await cachedConversation(page, pages.small, id)).toMatchObject({
    snippet: text,
    unreadCount: before.unreadCount + 1,
  })
  // Opening the conversation on the phone reads it: the badges clear on both tabs.
  await rows(page).first().click()
  await expect(page.getByTestId('chat-view')).toBeVisible()
  await expect.poll(() => badgeCount(headerBadge)).toBe(pageUnread - before.unreadCount)
  await expect.poll(() => badgeCount(sidebarBadge)).toBe(pageUnread - before.unreadCount)
  await expect(rows(second).first()).toHaveAttribute('data-conversation-id', id)
  await expect(rows(second).first().getByTestId('conversation-unread')).toHaveCount(0)
  await page.getByRole('button', { name: 'Back to conversations' }).click()
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', id)
  await expect(rows(page).first().getByTestId('conversation-unread')).toHaveCount(0)
  expect(await cachedConversation(page, pages.small, id)).toMatchObject({ unreadCount: 0 })
  await second.close()
  await controlledByServiceWorker(page)
  await context.setOffline(true)
  await page.reload()
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', id, { timeout: 20_000 })
  await expect(rows(page).first().getByTestId('conversation-snippet')).toHaveText(text)
  await context.setOffline(false)
})

test("a new customer's first message brings its conversation to the top of the list with the customer's name", async ({
  page,
  baseURL,
}) => {
  await openLiveInboxOnPhone(page)
  const name = 'Dara Sok'
  const text = `First time ${Date.now() % 100_000}`
  const sentAt = Date.now()
  // The stream's message names no conversation this device knows: the page's list is read again.
  const written = await newCustomerWrites(baseURL!, pages.small, name, text)
  await expect
    .poll(() => rows(page).first().getAttribute('data-conversation-id'), {
      timeout: ARRIVAL_TIMEOUT,
      intervals: [50],
    })
    .toBe(written.conversation_id)
  report('new customer', Date.now() - sentAt)
  const top = rows(page).first()
  await expect(top.getByTestId('conversation-name')).toHaveText(name)
  await expect(top.getByTestId('conversation-snippet')).toHaveText(text)
  await expect(top.getByTestId('conversation-unread')).toHaveAttribute('data-count', '1')
  await expectInside(top.getByTestId('conversation-name'), top)
  await expectInside(top.getByTestId('conversation-unread'), top)
  expect(await cachedConversation(page, pages.small, written.conversation_id)).toMatchObject({
    customerId: written.customer_id,
    snippet: text,
    unreadCount: 1,
  })
  // Opening it shows the message under the customer's name.
  await top.click()
  await expect(page.getByTestId('chat-customer-name')).toHaveText(name)
  await expect(page.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1)
})

test('an open chat appends a live message and reads it; a reply shows sent, delivered, then read', async ({
  page,
  baseURL,
}) => {
  await openLiveInboxOnPhone(page)
  // The newest conversation: its customer wrote inside the 24-hour window, so the page may reply.
  const row = rows(page).first()
  const id = (await row.getAttribute('data-conversation-id'))!
  await row.click()
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
  const { customerId } = (await cachedConversation(page, pages.small, id))!

  const text = `Open chat ${Date.now() % 100_000}`
  const sentAt = Date.now()
  await customerWrites(baseURL!, pages.small, customerId, text)
  const arrived = page.getByTestId('chat-message').filter({ hasText: text })
  await expect(arrived).toHaveCount(1, { timeout: ARRIVAL_TIMEOUT })
  report('open chat', Date.now() - sentAt)
  await expect.poll(async () => (await cachedConversation(page, pages.small, id))?.unreadCount).toBe(0)

  // The sandbox's receipts of each send are switched per reply, so each state shows long enough to be seen:
  // the first reply gets none (sent), the second a delivery (whose watermark covers the first too), the third
  // a delivery and a read (covering all three).
  const send = async (
    text: string,
    receipts: { webhook_receipt_share: number; webhook_read_share: number },
  ) => {
    await setFaults(baseURL!, { ...receipts, webhook_receipt_delay_ms: 300 })
    await page.getByTestId('reply-text').fill(text)
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1, {
      timeout: 20_000,
    })
  }
  const tag = Date.now() % 100_000
  const bubble = page.getByTestId('chat-message').filter({ hasText: `First ${tag}` })
  const mark = bubble.getByTestId('receipt-mark')
  await send(`First ${tag}`, { webhook_receipt_share: 0, webhook_read_share: 0 })
  await expect(mark).toHaveAttribute('data-receipt', 'sent')
  await expect(mark).toHaveAccessibleName('Sent')
  await send(`Second ${tag}`, { webhook_receipt_share: 1, webhook_read_share: 0 })
  await expect(mark).toHaveAttribute('data-receipt', 'delivered', { timeout: ARRIVAL_TIMEOUT })
  await expect(mark).toHaveAccessibleName('Delivered')
  await send(`Third ${tag}`, { webhook_receipt_share: 1, webhook_read_share: 1 })
  await expect(mark).toHaveAttribute('data-receipt', 'read', { timeout: ARRIVAL_TIMEOUT })
  await expect(mark).toHaveAccessibleName('Read')
  await expect(page.getByTestId('receipt-mark').last()).toHaveAttribute('data-receipt', 'read')
  // The mark sits inside the reply's bubble at phone width.
  await expectInside(mark, bubble.locator('div').first())
})

test("a bulk message's card counts the deliveries and reads the network reports", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await loginAsDemo(page)
  const text = `Receipts ${Date.now() % 100_000}`
  await setFaults(baseURL!, {
    webhook_receipt_share: 1,
    webhook_read_share: 1,
    webhook_receipt_delay_ms: 500,
  })
  await openWizard(page)
  await streamOpen(page)
  await composeAndSend(page, text)
  const card = await waitForCard(page, 'finished')
  const sent = (await sentLog(baseURL!)).filter((s) => s.text?.startsWith(text)).length
  expect(sent).toBeGreaterThan(0)
  // Every send was delivered and read (the sandbox's receipts, switched on for all before the send).
  await expect(card.getByTestId('bulk-card-delivered')).toHaveText(`${sent} delivered`, { timeout: 30_000 })
  await expect(card.getByTestId('bulk-card-read')).toHaveText(`${sent} read`, { timeout: 30_000 })
})

test('after an offline spell the stream resumes where it stopped and nothing is missed', async ({
  page,
  context,
  baseURL,
}) => {
  // On a phone the list shows alone: no chat is open to read the messages.
  await openLiveInboxOnPhone(page)
  const id = (await rows(page).nth(3).getAttribute('data-conversation-id'))!
  const { customerId, unreadCount } = (await cachedConversation(page, pages.small, id))!
  // One event first, so the tab has a point to resume from.
  const other = (await rows(page).nth(5).getAttribute('data-conversation-id'))!
  const { customerId: otherCustomer } = (await cachedConversation(page, pages.small, other))!
  await customerWrites(baseURL!, pages.small, otherCustomer, 'Before')
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', other, {
    timeout: ARRIVAL_TIMEOUT,
  })
  // By now the service worker controls the tab: its stream must still go to the network untouched, never
  // through the worker's fetch handler (which would hold the endless response, and end it when it stops).
  await controlledByServiceWorker(page)
  await context.setOffline(true)
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'offline')
  // Two messages while the tab is offline: it must get both once back, in order, counted once each.
  await customerWrites(baseURL!, pages.small, customerId, 'Missed one')
  await customerWrites(baseURL!, pages.small, customerId, 'Missed two')
  const reopened = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v2/events', {
    timeout: ARRIVAL_TIMEOUT,
  })
  await context.setOffline(false)
  expect((await reopened).fromServiceWorker()).toBe(false)
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', id, { timeout: ARRIVAL_TIMEOUT })
  await expect(rows(page).first().getByTestId('conversation-snippet')).toHaveText('Missed two')
  await expect
    .poll(async () => (await cachedConversation(page, pages.small, id))?.unreadCount)
    .toBe(unreadCount + 2)
})

test('duplicated and reordered webhooks leave the conversation exactly right', async ({ page, baseURL }) => {
  await openLiveInboxOnPhone(page)
  const id = (await rows(page).nth(2).getAttribute('data-conversation-id'))!
  const { customerId, unreadCount } = (await cachedConversation(page, pages.small, id))!
  // Every webhook is sent twice, and the second of the two messages reaches the server before the first.
  await setFaults(baseURL!, { webhook_duplicate: 1, webhook_reorder: true })
  await customerWrites(baseURL!, pages.small, customerId, 'Earlier')
  await new Promise((r) => setTimeout(r, 5))
  await customerWrites(baseURL!, pages.small, customerId, 'Later')
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', id, { timeout: ARRIVAL_TIMEOUT })
  await expect
    .poll(async () => (await cachedConversation(page, pages.small, id))?.unreadCount, {
      timeout: ARRIVAL_TIMEOUT,
    })
    .toBe(unreadCount + 2)
  await expect(rows(page).first().getByTestId('conversation-snippet')).toHaveText('Later')
  // Nothing more arrives later to change it.
  await page.waitForTimeout(500)
  expect(await cachedConversation(page, pages.small, id)).toMatchObject({
    unreadCount: unreadCount + 2,
    snippet: 'Later',
  })
})

test("a page's unread count is one: its home card and its inbox agree, before and after live messages", async ({
  page,
  baseURL,
}) => {
  test.slow()
  await page.setViewportSize(PHONE)
  // The large page's sync is held after its first read: only part of the page is on this device.
  const held = /\/conversations\?.*after=/
  await page.route(held, (route) => route.abort())
  await loginAsDemo(page)
  const card = page.locator(`[data-testid="page-card"][href="/${pages.large}"]`)
  const cardCount = () => badgeCount(card.getByTestId('page-card-unread'))
  await expect(card.getByTestId('page-card-unread')).toBeVisible()
  const before = await cardCount()
  expect(before).toBeGreaterThan(0)

  await card.click()
  await expect(rows(page).first()).toBeVisible({ timeout: 20_000 })
  await streamOpen(page)
  const header = page.getByTestId('page-header').getByTestId('page-header-unread')
  await expect.poll(() => badgeCount(header)).toBe(before)

  // Two live messages in a conversation on the device, not open.
  const id = (await rows(page).nth(2).getAttribute('data-conversation-id'))!
  const row = (await cachedConversation(page, pages.large, id))!
  await customerWrites(baseURL!, pages.large, row.customerId, 'Still open today?')
  await customerWrites(baseURL!, pages.large, row.customerId, 'I can come at 5')
  await expect
    .poll(async () => (await cachedConversation(page, pages.large, id))?.unreadCount, {
      timeout: ARRIVAL_TIMEOUT,
    })
    .toBe(row.unreadCount + 2)
  // Only part of the page is on the device: its count is the network's or the cache's sum when that is more.
  // The network's is what home showed at first, or that plus the two messages once the pages list is read
  // again (a focus, a reconnect): either is right, and the home card shows the same as the header.
  const local = await cachedPageUnread(page, pages.large)
  expect(local.whole).toBe(false)
  const allowed = [Math.max(local.cached, before), Math.max(local.cached, before + 2)]
  const oneOf = (ns: number[]) => async (read: () => Promise<number>) => {
    const n = await read()
    return ns.includes(n) ? 'right' : `${n}, not one of ${ns.join(' or ')}`
  }
  await expect.poll(() => oneOf(allowed)(() => badgeCount(header))).toBe('right')
  const inHeader = await badgeCount(header)
  await page.getByRole('link', { name: 'Pagecast home' }).click()
  await expect.poll(() => oneOf(allowed.filter((n) => n >= inHeader))(cardCount)).toBe('right')

  // The sync let through to the end: the whole page is on the device and both count from it, live ones too.
  await page.unroute(held)
  await card.click()
  await expect(page.getByTestId('sync-status')).toHaveText(/All 1,280 conversations synced/, {
    timeout: 60_000,
  })
  await expect.poll(() => badgeCount(header)).toBe(before + 2)
  await page.getByRole('link', { name: 'Pagecast home' }).click()
  await expect.poll(cardCount).toBe(before + 2)
})
