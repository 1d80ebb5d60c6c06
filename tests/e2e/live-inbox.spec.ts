/**
 * The live inbox: the network's webhooks reach the open app over its event stream, without a reload, in every
 * tab; an open chat appends and reads the message; the page's replies show delivered and read; a bulk card
 * counts its receipts. Arrival delays are measured from the webhook and reported, not judged against a clock.
 */
import type { Locator, Page } from '@playwright/test'
import { bulkTest, composeAndSend, expect, openWizard, sentLog, waitForCard } from './bulk-support.ts'
import { openInbox, pages } from './inbox-support.ts'
import { cachedConversation, customerMessage, postWebhook, receipt, streamOpen } from './live-support.ts'
import { loginAsDemo } from './support/login.ts'

const test = bulkTest()
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

function report(name: string, ms: number) {
  test.info().annotations.push({ type: 'arrival', description: `${name}: ${ms} ms after the webhook` })
  console.log(`live-inbox: ${name} ${ms} ms after the webhook`)
}

test('a live customer message moves its conversation to the top, unread, in two open tabs and in the cache', async ({
  page,
  context,
  baseURL,
}) => {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await streamOpen(page)
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
  const text = `Live ${Date.now() % 100_000}`
  const sentAt = Date.now()
  await postWebhook(baseURL!, pages.small, [customerMessage(pages.small, before.customerId, text)])

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
  }
  // The chat the owner was reading stays on screen: the list moved, not the chat.
  await expect(chatName).toHaveText(shownChat!)
  // The local database has it: an offline reload shows the same.
  expect(await cachedConversation(page, pages.small, id)).toMatchObject({
    snippet: text,
    unreadCount: before.unreadCount + 1,
  })
  await second.close()
})

test('an open chat appends a live message and reads it; a reply shows sent, delivered, then read', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await streamOpen(page)
  // The newest conversation: its customer wrote inside the 24-hour window, so the page may reply.
  const row = rows(page).first()
  const id = (await row.getAttribute('data-conversation-id'))!
  await row.click()
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
  const { customerId } = (await cachedConversation(page, pages.small, id))!

  const text = `Open chat ${Date.now() % 100_000}`
  const sentAt = Date.now()
  await postWebhook(baseURL!, pages.small, [customerMessage(pages.small, customerId, text)])
  const arrived = page.getByTestId('chat-message').filter({ hasText: text })
  await expect(arrived).toHaveCount(1, { timeout: ARRIVAL_TIMEOUT })
  report('open chat', Date.now() - sentAt)
  await expect.poll(async () => (await cachedConversation(page, pages.small, id))?.unreadCount).toBe(0)

  const reply = `Thanks ${Date.now() % 100_000}`
  await page.getByTestId('reply-text').fill(reply)
  await page.getByTestId('reply-send').click()
  const bubble = page.getByTestId('chat-message').filter({ hasText: reply })
  const mark = bubble.getByTestId('receipt-mark')
  await expect(mark).toHaveAttribute('data-receipt', 'sent', { timeout: 20_000 })
  await expect(mark).toHaveAccessibleName('Sent')

  await postWebhook(baseURL!, pages.small, [receipt(pages.small, customerId, 'delivery', Date.now())])
  await expect(mark).toHaveAttribute('data-receipt', 'delivered', { timeout: ARRIVAL_TIMEOUT })
  await expect(mark).toHaveAccessibleName('Delivered')
  await postWebhook(baseURL!, pages.small, [receipt(pages.small, customerId, 'read', Date.now())])
  await expect(mark).toHaveAttribute('data-receipt', 'read', { timeout: ARRIVAL_TIMEOUT })
  await expect(mark).toHaveAccessibleName('Read')
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
  await openWizard(page)
  await streamOpen(page)
  await composeAndSend(page, text)
  const card = await waitForCard(page, 'finished')
  const recipients = (await sentLog(baseURL!))
    .filter((s) => s.text?.startsWith(text))
    .map((s) => s.recipient_id)
  expect(recipients.length).toBeGreaterThanOrEqual(3)
  const watermark = Date.now()
  await postWebhook(baseURL!, pages.small, [
    ...recipients.slice(0, 3).map((r) => receipt(pages.small, r, 'delivery', watermark)),
    receipt(pages.small, recipients[0]!, 'read', watermark),
  ])
  await expect(card.getByTestId('bulk-card-delivered')).toHaveText('3 delivered', {
    timeout: ARRIVAL_TIMEOUT,
  })
  await expect(card.getByTestId('bulk-card-read')).toHaveText('1 read')
})

test('after an offline spell the stream resumes where it stopped and nothing is missed', async ({
  page,
  context,
  baseURL,
}) => {
  // On a phone the list shows alone: no chat is open to read the messages.
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await streamOpen(page)
  const id = (await rows(page).nth(3).getAttribute('data-conversation-id'))!
  const { customerId, unreadCount } = (await cachedConversation(page, pages.small, id))!
  // One event first, so the tab has a point to resume from.
  const other = (await rows(page).nth(5).getAttribute('data-conversation-id'))!
  const { customerId: otherCustomer } = (await cachedConversation(page, pages.small, other))!
  await postWebhook(baseURL!, pages.small, [customerMessage(pages.small, otherCustomer, 'Before')])
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', other, {
    timeout: ARRIVAL_TIMEOUT,
  })
  await context.setOffline(true)
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'offline')
  // Two messages while the tab is offline: it must get both once back, in order, counted once each.
  const at = Date.now()
  await postWebhook(baseURL!, pages.small, [
    customerMessage(pages.small, customerId, 'Missed one', at),
    customerMessage(pages.small, customerId, 'Missed two', at + 1),
  ])
  await context.setOffline(false)
  await expect(rows(page).first()).toHaveAttribute('data-conversation-id', id, { timeout: ARRIVAL_TIMEOUT })
  await expect(rows(page).first().getByTestId('conversation-snippet')).toHaveText('Missed two')
  await expect
    .poll(async () => (await cachedConversation(page, pages.small, id))?.unreadCount)
    .toBe(unreadCount + 2)
})
