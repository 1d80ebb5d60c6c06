/**
 * Who is waiting, on a phone (360 x 740): a customer's live question, then a broadcast to everyone. The
 * question's row keeps the customer's words, their unread count and "Needs reply", with the broadcast apart;
 * the Needs reply filter (in the address) finds it; a person's reply clears it. The list's new controls are at
 * least 44 x 44 and no new text is cut, in English and in Urdu (right to left).
 */
import type { Locator, Page } from '@playwright/test'
import { bulkTest, composeAndSend, expect, openWizard, waitForCard } from './bulk-support.ts'
import { openInbox, pages } from './inbox-support.ts'
import { customerMessage, newCustomerWrites, postWebhook, streamOpen } from './live-support.ts'
import { loginAsDemo } from './support/login.ts'
import { smallTargets } from './support/targets.ts'

const test = bulkTest()
const PHONE = { width: 360, height: 740 }
const LIVE = 20_000

const rowOf = (page: Page, conversationId: string) =>
  page.locator(`[data-testid="conversation-row"][data-conversation-id="${conversationId}"]`)

/** The box lies inside the screen, and its text is not cut by it (unless it says why). */
async function expectFits(el: Locator) {
  const box = (await el.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(-0.5)
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 0.5)
  const cut = await el.evaluate(
    (node) =>
      !node.closest('[data-truncate]') &&
      (node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1),
  )
  expect(cut, `text cut in ${await el.getAttribute('data-testid')}`).toBe(false)
}

/**
 * The list's filters (on their one line, which scrolls sideways: each whole once scrolled to), the row's marks
 * and "Mark as done": on screen, uncut, every control 44 x 44.
 */
async function checkListLayout(page: Page, row: Locator) {
  for (const id of [
    'list-filter-all',
    'list-filter-unread',
    'list-filter-needs_reply',
    'list-filter-window_closed',
  ]) {
    await page.getByTestId(id).scrollIntoViewIfNeeded()
    await expectFits(page.getByTestId(id))
  }
  await expectFits(
    row.locator('[data-testid="conversation-needs-reply"], [data-testid="conversation-window-closed"]'),
  )
  const small = (await smallTargets(page)).filter((t) => !/^(conversation-row|bulk-)/.test(t.name))
  expect(small).toEqual([])
  const done = page.getByTestId('conversation-mark-done').first()
  const box = (await done.boundingBox())!
  expect(box.width).toBeGreaterThanOrEqual(44)
  expect(box.height).toBeGreaterThanOrEqual(44)
}

test('a question stays waiting after a broadcast, the Needs reply filter finds it, a reply clears it', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await streamOpen(page)
  const question = 'Do you have it in size M?'
  const asked = await newCustomerWrites(baseURL!, pages.small, 'Paolo Reyes', question)
  const row = rowOf(page, asked.conversation_id)
  await expect(row.getByTestId('conversation-needs-reply')).toBeVisible({ timeout: LIVE })
  await expect(row.getByTestId('conversation-unread')).toHaveAttribute('data-count', '1')

  // A broadcast to everyone (those waiting included).
  await openWizard(page, pages.small)
  await composeAndSend(page, 'Sunday promotion: 20% off')
  await waitForCard(page, 'finished')
  await page.goto(`/${pages.small}`)
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: LIVE })

  // The Needs reply filter, in the address, finds it (the broadcast moved every row: it is further down).
  await page.getByTestId('list-filter-needs_reply').click()
  await expect(page).toHaveURL(/filter=needs_reply/)
  await expect(page.getByTestId('list-filter-needs_reply')).toHaveAttribute('aria-pressed', 'true')
  await expect(row.getByTestId('conversation-broadcast')).toContainText('Sunday promotion', { timeout: LIVE })
  await expect(row.getByTestId('conversation-snippet')).toHaveText(question)
  await expect(row.getByTestId('conversation-unread')).toHaveAttribute('data-count', '1')
  await expect(row.getByTestId('conversation-needs-reply')).toBeVisible()
  await checkListLayout(page, row)
  for (const r of await page.getByTestId('conversation-row').all())
    await expect(r).toHaveAttribute('data-waiting', 'reply')
  await row.click()
  await expect(page.getByTestId('chat-mark-done')).toBeVisible()
  await page.getByTestId('reply-text').fill('Yes, size M is here.')
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('chat-mark-done')).toBeHidden({ timeout: LIVE })
  await page.goBack()
  await expect(page).toHaveURL(/filter=needs_reply/)
  await expect(rowOf(page, asked.conversation_id)).toHaveCount(0, { timeout: LIVE })
})

test('the waiting customers no reply reaches any more are under Window closed, and each filter says what it allows', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.small)
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-phase', 'done', { timeout: LIVE })
  const count = async (kind: string) =>
    Number(
      (await page.getByTestId(`list-filter-${kind}`).getByTestId('list-filter-count').textContent())!.replace(
        /\D/g,
        '',
      ),
    )
  const waitingRows = await page.locator('[data-testid="conversation-row"][data-needs-reply="true"]').count()

  await page.getByTestId('list-filter-window_closed').click()
  await expect(page).toHaveURL(/filter=window_closed/)
  await expect(page.getByTestId('waiting-note')).toContainText('a utility template or a marketing message')
  const closed = page.getByTestId('conversation-row')
  await expect(closed.first()).toBeVisible()
  expect(await count('window_closed')).toBeGreaterThan(0)
  for (const r of await closed.all()) {
    await expect(r).toHaveAttribute('data-waiting', 'window_closed')
    await expect(r.getByTestId('conversation-window-closed')).toBeVisible()
  }
  await checkListLayout(page, closed.first())
  await expectFits(page.getByTestId('waiting-note'))
  // The chat says the same: no reply goes out (the composer is closed to it).
  await closed.first().click()
  await expect(page.getByTestId('reply-text')).toBeDisabled({ timeout: LIVE })
  await page.goBack()
  await expect(page).toHaveURL(/filter=window_closed/)

  await page.getByTestId('list-filter-needs_reply').click()
  await expect(page.getByTestId('waiting-note')).toContainText('they wrote in the last 24 hours')
  for (const r of await page.getByTestId('conversation-row').all())
    await expect(r).toHaveAttribute('data-waiting', 'reply')
  await page.screenshot({ path: 'tests/artifacts/inbox-waiting/needs-reply-and-window-closed.png' })
  // Every waiting row in All is in one half of the to-do, and says which.
  await page.getByTestId('list-filter-all').click()
  await expect(page.getByTestId('waiting-note')).toHaveCount(0)
  for (const r of await page.locator('[data-testid="conversation-row"][data-needs-reply="true"]').all())
    expect(['reply', 'window_closed']).toContain(await r.getAttribute('data-waiting'))
  expect(waitingRows).toBeGreaterThan(0)
})

test.describe('in Urdu', () => {
  test.use({ locale: 'ur-PK' })

  test('the waiting row, its broadcast line and the filters fit right to left', async ({ page, baseURL }) => {
    await page.setViewportSize(PHONE)
    await loginAsDemo(page)
    await openInbox(page, pages.small)
    await streamOpen(page)
    const asked = await newCustomerWrites(baseURL!, pages.small, 'Paolo Reyes', 'کیا یہ M سائز میں ہے؟')
    const row = rowOf(page, asked.conversation_id)
    await expect(row.getByTestId('conversation-needs-reply')).toBeVisible({ timeout: LIVE })
    // The network's echo of a broadcast (marked as one) to that customer.
    const echo = customerMessage(pages.small, asked.customer_id, 'Sunday promotion')
    await postWebhook(baseURL!, pages.small, [
      {
        sender: { id: pages.small },
        recipient: { id: asked.customer_id },
        timestamp: Date.now(),
        message: { ...(echo.message as object), is_echo: true, metadata: 'pagecast:broadcast' },
      },
    ])
    await expect(row.getByTestId('conversation-broadcast')).toBeVisible({ timeout: LIVE })
    await expect(row.getByTestId('conversation-needs-reply')).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await checkListLayout(page, row)
    // Right to left: the filters start at the right edge.
    const all = (await page.getByTestId('list-filter-all').boundingBox())!
    const unread = (await page.getByTestId('list-filter-unread').boundingBox())!
    expect(all.x).toBeGreaterThan(unread.x)
  })
})
