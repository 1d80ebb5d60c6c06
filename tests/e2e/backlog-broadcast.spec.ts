/**
 * A page whose 1,280 conversations all predate its connection (the sandbox's large page, Sunrise Market): the
 * owner opens it and the sync reads the whole list, telling the server each page of it
 * (docs/product-rules.md#who-is-waiting). Then a broadcast to everyone the policy lets it reach, the waiting
 * customers included. Afterwards every waiting conversation keeps its question, its unread count and its
 * state, the page's unread badge and the to-do's counts are unchanged, and a person's reply clears one. On a
 * phone held upright.
 */
import type { Page } from '@playwright/test'
import { SNIPPET_PREVIEW_CHARS } from '../../src/core/constants/limits.ts'
import { cutText } from '../../src/core/format/text.ts'
import { toInboxRows, type InboxRow } from '../../src/features/inbox/model/list-view.ts'
import { bulkTest, composeAndSend, expect, openWizard, pages, sentLog, waitForCard } from './bulk-support.ts'
import { openInbox } from './inbox-support.ts'
import { cachedInbox } from './live-support.ts'
import { badgeCount } from './support/badge.ts'
import { loginAsDemo } from './support/login.ts'

const test = bulkTest({ PACING_SCALE: '0.01' }, 'backlog')
const PHONE = { width: 360, height: 740 }
const TEXT = 'Weekend sale: 20% off everything'

/** The page's rows as the list shows them (the cache joined to the states), by customer. */
async function shownRows(page: Page): Promise<Map<string, InboxRow>> {
  const { rows, states } = await cachedInbox(page, pages.large)
  const byCustomer = new Map(states.map((s) => [s.customerId, s]))
  return new Map(toInboxRows(rows, byCustomer).map((r) => [r.customerId, r]))
}

/** The count a filter chip shows. */
async function chip(page: Page, kind: string): Promise<number> {
  const text = await page.getByTestId(`list-filter-${kind}`).getByTestId('list-filter-count').textContent()
  return Number((text ?? '').replace(/\D/g, ''))
}

test('a broadcast to a page whose history predates it leaves who is waiting as it was; a reply clears one', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000)
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await openInbox(page, pages.large)
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 })
  expect(await chip(page, 'all')).toBeGreaterThanOrEqual(1_000)

  const before = await shownRows(page)
  const waiting = [...before.values()].filter((r) => r.needsReply)
  // The history says who is waiting: hundreds of customers, each with their last words and unread count.
  expect(waiting.length).toBeGreaterThan(100)
  const badge = page.getByTestId('page-header-unread')
  await expect.poll(() => badgeCount(badge)).toBeGreaterThan(0)
  const badgeBefore = await badgeCount(badge)
  const todoBefore = (await chip(page, 'needs_reply')) + (await chip(page, 'window_closed'))
  expect(todoBefore).toBe(waiting.length)
  const unreadBefore = await chip(page, 'unread')

  // A broadcast to everyone the policy reaches, the waiting customers included.
  await openWizard(page, pages.large)
  await composeAndSend(page, TEXT)
  await waitForCard(page, 'finished', 180_000)
  const reached = new Set(
    (await sentLog(baseURL!)).filter((s) => s.text?.startsWith(TEXT)).map((s) => s.recipient_id),
  )
  const reachedWaiting = waiting.filter((r) => reached.has(r.customerId))
  expect(reachedWaiting.length).toBeGreaterThan(20)

  // The network's echoes of the broadcast reach the server and the device: each such row shows it apart.
  await page.goto(`/${pages.large}`)
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await expect
    .poll(
      async () => {
        const now = await shownRows(page)
        return reachedWaiting.filter((r) => now.get(r.customerId)?.broadcastText === undefined).length
      },
      { timeout: 60_000 },
    )
    .toBe(0)

  const after = await shownRows(page)
  const changed = waiting.flatMap((r) => {
    const a = after.get(r.customerId)
    const same = a?.needsReply && a.snippet === r.snippet && a.unreadCount === r.unreadCount
    return same
      ? []
      : [`${r.customerName}: ${r.snippet} (${r.unreadCount}) -> ${a?.snippet} (${a?.unreadCount})`]
  })
  expect(changed).toEqual([])
  await expect.poll(() => badgeCount(badge)).toBe(badgeBefore)
  await expect
    .poll(async () => (await chip(page, 'needs_reply')) + (await chip(page, 'window_closed')))
    .toBe(todoBefore)
  expect(await chip(page, 'unread')).toBe(unreadBefore)
  const figures = `${before.size} conversations, ${waiting.length} waiting, ${reached.size} reached by the broadcast (${reachedWaiting.length} of them waiting), page badge ${badgeBefore} before and after`
  test.info().annotations.push({ type: 'backlog', description: figures })
  console.log(figures)

  // One of them on screen: found by name, the question and its count with the broadcast apart.
  const one = reachedWaiting.find((r) => r.unreadCount > 0 && r.customerName.length > 0) ?? reachedWaiting[0]!
  await page.getByTestId('conversation-filter').fill(one.customerName)
  const row = page.locator(`[data-testid="conversation-row"][data-conversation-id="${one.id}"]`)
  await expect(row.getByTestId('conversation-snippet')).toHaveText(
    cutText(one.snippet, SNIPPET_PREVIEW_CHARS),
    {
      timeout: 20_000,
    },
  )
  await expect(row.getByTestId('conversation-broadcast')).toContainText(TEXT.slice(0, 12))
  await expect(row.getByTestId('conversation-needs-reply')).toBeVisible()
  await page.screenshot({ path: 'tests/artifacts/backlog-broadcast/waiting-row-after-broadcast.png' })

  // A person's reply answers that customer: one fewer waiting, the rest as they were.
  await row.click()
  await page.getByTestId('reply-text').fill('Yes, we have it in stock.')
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('chat-mark-done')).toBeHidden({ timeout: 20_000 })
  await expect.poll(async () => (await shownRows(page)).get(one.customerId)?.needsReply).toBe(false)
  const last = await shownRows(page)
  expect(
    waiting.filter((r) => r.customerId !== one.customerId && !last.get(r.customerId)?.needsReply),
  ).toEqual([])
})
