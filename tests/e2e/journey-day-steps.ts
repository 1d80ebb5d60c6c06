/**
 * Steps of the phone journey through the rest of the day: a conversation found by search without scrolling to
 * it, a customer writing live (the unread counts rise, then clear when the chat is opened), the saved replies
 * closed by Back, and the app in Urdu with a customer's Latin text still reading left to right.
 */
import { type Locator, type Page, expect } from '@playwright/test'
import { rowCount } from './inbox-support.ts'
import { type Journey, box, expectInside, shot, viewportOf } from './journey-support.ts'
import { cachedConversation, cachedPageUnread, customerWrites, streamOpen } from './live-support.ts'
import { pages } from './support/sandbox.ts'
import { badgeCount } from './support/badge.ts'

const rows = (page: Page) => page.getByTestId('conversation-row')
const rowOf = (page: Page, id: string) =>
  page.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`)

/** A badge's count; no badge is none unread. */

interface SenderAction {
  page_id: string
  recipient_id: string
  sender_action: string
}

async function senderActions(baseURL: string): Promise<SenderAction[]> {
  const res = await fetch(`${baseURL}/sandbox/sender-actions`)
  return ((await res.json()) as { data: SenderAction[] }).data
}

/** Where an element's first and last letters are drawn, its own box and its direction. */
function letterBoxes(el: Element) {
  const text = el.firstChild!
  const at = (start: number) => {
    const range = document.createRange()
    range.setStart(text, start)
    range.setEnd(text, start + 1)
    const r = range.getBoundingClientRect()
    return { left: r.left, right: r.right }
  }
  const own = el.getBoundingClientRect()
  return {
    direction: getComputedStyle(el).direction,
    first: at(0),
    last: at(text.textContent!.length - 1),
    own: { left: own.left, right: own.right },
  }
}

/** Latin text reads left to right from its own left edge ("We open…", never "…We open" from the right). */
async function expectLeftToRight(el: Locator): Promise<void> {
  const drawn = await el.evaluate(letterBoxes)
  expect(drawn.direction).toBe('ltr')
  expect(drawn.first.left).toBeLessThan(drawn.last.left)
  expect(Math.abs(drawn.first.left - drawn.own.left)).toBeLessThan(2)
}

export const daySteps = {
  /**
   * The filter finds a conversation far down the large page (around row 1,275) without a scroll: the list
   * syncs the page into the device in the background, says how far it got, and the filter searches that.
   */
  async searchNeverScrolled(j: Journey) {
    const { page } = j
    await page.goto(`/${pages.large}`)
    await expect(rows(page).first()).toBeVisible({ timeout: 20_000 })
    const list = page.getByTestId('conversation-list')
    await page.getByTestId('conversation-filter').fill('Paolo Wijaya')
    const status = page.getByTestId('sync-status')
    await expect(status).toHaveText(/All 1,280 conversations synced/, { timeout: 60_000 })
    await expect.poll(() => rowCount(page)).toBe(8)
    const names = await rows(page).evaluateAll((els) =>
      els.map((e) => e.querySelector('span.truncate')?.textContent),
    )
    expect(new Set(names)).toEqual(new Set(['Paolo Wijaya']))
    // Never scrolled: the list is at its top, the matches and the counter on screen.
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0)
    expectInside(await box(rows(page).first()), await box(list), 'the first match is in the list')
    expectInside(await box(rows(page).first()), viewportOf(j), 'the first match is on screen')
    expectInside(await box(status), viewportOf(j), 'the sync counter is on screen')
    await shot(j, 'search-found-unscrolled')
    await page.getByTestId('conversation-filter').fill('')
  },

  /**
   * A customer writes while the list is open: the row rises to the top with one more unread, the page's count
   * too, without a reload; opening the chat clears both and tells the network it was seen (mark_seen).
   */
  async unreadRaisedLiveThenCleared(j: Journey) {
    const { page, baseURL } = j
    await page.goto(`/${pages.small}`)
    await expect(rows(page).first()).toBeVisible({ timeout: 20_000 })
    await streamOpen(page)
    // A marker on the window: it would be gone after a reload.
    await page.evaluate(() => ((window as unknown as { journeyMark: number }).journeyMark = 1))
    const id = (await rows(page).nth(4).getAttribute('data-conversation-id'))!
    const customerId = (await cachedConversation(page, pages.small, id))!.customerId
    const pageBadge = page.getByTestId('page-header-unread')
    const rowBadge = rowOf(page, id).getByTestId('conversation-unread')
    // The small page is all on the device: its count is the cache's sum, read once the header has drawn it.
    await expect.poll(async () => (await cachedPageUnread(page, pages.small)).whole).toBe(true)
    await expect
      .poll(async () => (await badgeCount(pageBadge)) - (await cachedPageUnread(page, pages.small)).cached)
      .toBe(0)
    const pageBefore = await badgeCount(pageBadge)
    const rowBefore = await badgeCount(rowBadge)
    const seenBefore = (await senderActions(baseURL)).filter((a) => a.recipient_id === customerId).length

    const text = `Open at 9 am, ${j.run}.`
    await customerWrites(baseURL, pages.small, customerId, text)
    await expect
      .poll(() => rows(page).first().getAttribute('data-conversation-id'), { timeout: 20_000 })
      .toBe(id)
    await expect.poll(() => badgeCount(rowBadge)).toBe(rowBefore + 1)
    await expect.poll(() => badgeCount(pageBadge)).toBe(pageBefore + 1)
    expect(await page.evaluate(() => (window as unknown as { journeyMark?: number }).journeyMark)).toBe(1)
    // The counts sit inside their row and header, on screen.
    expectInside(await box(rowBadge), await box(rowOf(page, id)), 'the row count is in its row')
    expectInside(await box(rowBadge), viewportOf(j), 'the row count is on screen')
    expectInside(
      await box(pageBadge),
      await box(page.getByTestId('page-header')),
      'the page count is in its header',
    )
    await shot(j, 'unread-raised-live')

    await rowOf(page, id).click()
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await expect(page.getByTestId('chat-message').filter({ hasText: text })).toBeVisible({ timeout: 20_000 })
    await expect.poll(() => badgeCount(pageBadge)).toBe(pageBefore - rowBefore)
    await expect
      .poll(
        async () =>
          (await senderActions(baseURL)).filter(
            (a) =>
              a.recipient_id === customerId && a.page_id === pages.small && a.sender_action === 'mark_seen',
          ).length,
      )
      .toBeGreaterThan(seenBefore)
    await shot(j, 'unread-cleared-in-chat')
    await page.goBack()
    await expect(rowOf(page, id)).toBeVisible()
    await expect(rowBadge).toHaveCount(0)
    j.live = { conversationId: id, text }
  },

  /** The saved replies sheet is an entry of the history: the phone's Back closes it and stays in the chat. */
  async savedRepliesClosedByBack(j: Journey) {
    const { page } = j
    if ((await page.getByTestId('chat-view').count()) === 0) {
      await rows(page).first().click()
      await expect(page.getByTestId('chat-view')).toBeVisible()
    }
    const chat = new URL(page.url())
    await expect(page.getByTestId('saved-replies-open')).toBeEnabled({ timeout: 20_000 })
    await page.getByTestId('saved-replies-open').click()
    const sheet = page.getByTestId('saved-replies')
    await expect(sheet).toBeVisible()
    await expect(page).toHaveURL(/[?&]modal=saved-replies/)
    expectInside(await box(sheet), viewportOf(j), 'the sheet is on screen')
    await shot(j, 'saved-replies-open')
    await page.goBack()
    await expect(sheet).toHaveCount(0)
    await expect(page).not.toHaveURL(/modal=/)
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(chat.pathname + chat.search)
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await shot(j, 'saved-replies-closed-by-back')
  },

  /**
   * The owner switches the app to Urdu: the screens turn right to left, and the customer's Latin message keeps
   * its left-to-right order from its own left edge, in the list and in the chat.
   */
  async urduLatinLeftToRight(j: Journey) {
    const { page } = j
    expect(j.live, 'a customer wrote earlier in the day').toBeTruthy()
    const { conversationId, text } = j.live!
    await page.goto(`/${pages.small}`)
    await page.getByRole('button', { name: 'Expand sidebar' }).click()
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ur')
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await page.getByTestId('sidebar').locator('button').first().click()
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true')

    const snippet = rowOf(page, conversationId).getByTestId('conversation-snippet')
    await expect(snippet).toHaveText(text, { timeout: 20_000 })
    await expectLeftToRight(snippet)
    // The row itself is right to left: the avatar at the right.
    const row = await box(rowOf(page, conversationId))
    const avatar = await box(rowOf(page, conversationId).locator('img').first())
    expect(avatar.x + avatar.width / 2).toBeGreaterThan(row.x + row.width / 2)
    await shot(j, 'urdu-list')

    await rowOf(page, conversationId).click()
    const bubble = page.getByTestId('chat-message').locator('p', { hasText: text }).last()
    await expect(bubble).toBeVisible({ timeout: 20_000 })
    await expectLeftToRight(bubble)
    await shot(j, 'urdu-chat')
  },
}
