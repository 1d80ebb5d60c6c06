/**
 * The inbox: list, chat, replies under the messaging window, refusals. The list's paging and long histories are
 * shown on the sandbox's large page; what does not depend on a page's size (replies, the window) on the small one.
 */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, pages, PNG, rowCount, scrollListToEnd, sentLog } from './inbox-support.ts'

test.beforeEach(async ({ page }) => {
  await loginAsDemo(page)
})

test('opening a page shows its conversations and the chat with the first customer', async ({ page }) => {
  await openInbox(page)
  await expect(page.getByRole('heading', { name: 'Messages' })).toBeVisible()
  await expect(page.getByTestId('page-name')).toHaveText('Sunrise Market')
  const first = page.getByTestId('conversation-row').first()
  await expect(first).toHaveAttribute('aria-current', 'true')
  const snippet = (await first.getByTestId('conversation-snippet').textContent()) ?? ''
  // 25 letters as a reader counts them (grapheme clusters), then an ellipsis when there is more.
  const letters = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(snippet))
  expect(letters.length).toBeLessThanOrEqual(snippet.endsWith('…') ? 26 : 25)
  await expect(page.getByTestId('chat-view')).toBeVisible()
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
  await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'standard')
})

test('on a phone the list shows alone, and the chat is drawn once a conversation is chosen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await openInbox(page)
  const first = page.getByTestId('conversation-row').first()
  await expect(first).toHaveAttribute('aria-current', 'true')
  // Nothing of the chat behind the list: not drawn, not loaded.
  await expect(page.getByTestId('chat-view')).toHaveCount(0)
  const name = (await first.locator('span.truncate').first().textContent())!.trim()
  await first.click()
  await expect(page.getByTestId('chat-customer-name')).toHaveText(name)
  await expect(page.getByTestId('chat-message').first()).toBeVisible()
  await expect(page.getByTestId('conversation-list')).toBeHidden()
  // Wider again (a phone turned, a window widened): list and chat side by side.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect(page.getByTestId('conversation-list')).toBeVisible()
  await expect(page.getByTestId('chat-view')).toBeVisible()
})

test('conversations picked one after another side by side are one step: Back returns to the list', async ({
  page,
}) => {
  await openInbox(page)
  const rows = page.getByTestId('conversation-row')
  const entries = await page.evaluate(() => history.length)
  for (const i of [1, 2, 3]) {
    const name = (await rows.nth(i).locator('span.truncate').first().textContent())!.trim()
    await rows.nth(i).click()
    await expect(page.getByTestId('chat-customer-name')).toHaveText(name)
    await expect(page).toHaveURL(/[?&]c=/)
  }
  // The first pick pushed one entry; the next two took its place.
  expect(await page.evaluate(() => history.length)).toBe(entries + 1)
  await page.goBack()
  await expect(page).not.toHaveURL(/[?&]c=/)
  await expect(page.getByTestId('conversation-list')).toBeVisible()
})

test('the filter searches names and snippets, and a click selects the conversation', async ({ page }) => {
  await openInbox(page)
  const second = page.getByTestId('conversation-row').nth(1)
  const name = (await second.locator('span.truncate').first().textContent())!.trim()
  // The bulk toggle shows the wizard in place of the chat; selecting a conversation closes it again.
  await page.getByTestId('bulk-toggle').click()
  await expect(page.getByTestId('chat-view')).toHaveCount(0)
  await expect(page).toHaveURL(/bulk=1/)
  await page.getByTestId('conversation-filter').fill(name.toUpperCase())
  const rows = page.getByTestId('conversation-row')
  await expect(rows.first()).toContainText(name)
  await rows.first().click()
  await expect(page.getByTestId('chat-customer-name')).toHaveText(name)
  await expect(page).not.toHaveURL(/bulk=1/)
  await page.getByTestId('conversation-filter').fill('zzzz-no-such-text')
  await expect(rows).toHaveCount(0)
  await expect(page.getByTestId('conversation-list-status')).toHaveText('No such more messages')
})

test('scrolling loads the long list page by page to its end, with few rows in the DOM', async ({ page }) => {
  test.setTimeout(180_000)
  await openInbox(page)
  const status = page.getByTestId('conversation-list-status')
  for (let i = 0; i < 120; i++) {
    await scrollListToEnd(page)
    if ((await status.textContent()) === 'No such more messages') break
    await page.waitForTimeout(150)
  }
  await expect(status).toHaveText('No such more messages')
  expect(await rowCount(page)).toBe(1_280)
  expect(await page.getByTestId('conversation-row').count()).toBeLessThan(60)
})

test('older history loads when the chat is scrolled to the top, without the view jumping', async ({
  page,
}) => {
  await openInbox(page)
  const rows = page.getByTestId('conversation-row')
  const messages = page.getByTestId('chat-message')
  const history = page.getByTestId('chat-history')
  // The history is virtualised: `data-count` is the number of messages loaded, the DOM holds those in view.
  const loaded = async () => Number(await history.getAttribute('data-count'))
  // A conversation whose first page is full (25) may have older messages. Each chat is looked at once its
  // first page has arrived (its name shown, messages counted), not after a fixed time: on a slow machine a
  // chat still loading would be passed over, and the search could end on one with exactly 25 and no more.
  let found = false
  for (let i = 0; i < 12 && !found; i++) {
    const row = rows.nth(i)
    const name = (await row.locator('span.truncate').first().textContent())!.trim()
    await row.click()
    await expect(page.getByTestId('chat-customer-name')).toHaveText(name)
    await expect.poll(loaded).toBeGreaterThan(0)
    found = (await loaded()) === 25
  }
  expect(found).toBe(true)
  // Just below the edge that loads older messages: the message on top is noted, then the top is reached. The
  // history draws the messages of a new scroll position in the next frame, so the top one is read once drawn.
  await history.evaluate((el) => el.scrollTo({ top: 100 }))
  const topShown = () =>
    history.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const shown = Array.from(el.querySelectorAll('[data-testid="chat-message"]')).find((m) => {
        const b = m.getBoundingClientRect()
        return b.top >= box.top && b.bottom <= box.bottom
      })
      return shown?.textContent ?? ''
    })
  let topText = ''
  await expect.poll(async () => (topText = await topShown())).not.toBe('')
  await history.evaluate((el) => el.scrollTo({ top: 0 }))
  await expect.poll(loaded).toBeGreaterThan(25)
  // The message that was on top is still in view: the view did not jump to the new oldest one.
  await expect(messages.filter({ hasText: topText }).first()).toBeInViewport()
})

test('an image reply is uploaded, sent image first, and shown in the history', async ({ page, baseURL }) => {
  await openInbox(page, pages.small)
  await page
    .getByTestId('reply-image')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByTestId('watermark-warning')).toBeVisible()
  await page.getByTestId('reply-text').fill('Here is the photo')
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('reply-text')).toHaveValue('')
  await expect(page.getByTestId('chat-image').last()).toBeVisible()
  const sent = await sentLog(baseURL!)
  expect(sent.map((s) => (s.attachment ? 'image' : s.text))).toEqual(['image', 'Here is the photo'])
  expect(sent.every((s) => s.messaging_type === 'RESPONSE')).toBe(true)
})

test('empty text sends nothing, and a non-image file is not taken', async ({ page, baseURL }) => {
  await openInbox(page, pages.small)
  await page
    .getByTestId('reply-image')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') })
  await expect(page.getByTestId('watermark-warning')).toHaveCount(0)
  await page.getByTestId('reply-text').fill('   ')
  await page.getByTestId('reply-send').click()
  await page.waitForTimeout(500)
  expect(await sentLog(baseURL!)).toEqual([])
})

test('a customer outside the 24-hour window cannot be answered, and the reason is given', async ({
  page,
}) => {
  // The small page's oldest customers wrote days ago: the end of its list is outside the window. (The large
  // page's size is not what this shows: its newest ~310 would have to be scrolled past first.)
  await openInbox(page, pages.small)
  const status = page.getByTestId('conversation-list-status')
  await expect
    .poll(async () => {
      await scrollListToEnd(page)
      return status.textContent()
    })
    .toBe('No such more messages')
  await page.getByTestId('conversation-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  const last = page.getByTestId('conversation-row').last()
  await last.click()
  const notice = page.getByTestId('window-notice')
  await expect(notice).toHaveAttribute('data-reason', /needs_human_agent|closed/)
  await expect(notice).toContainText("You can't reply")
  await expect(page.getByTestId('reply-send')).toBeDisabled()
  await expect(page.getByTestId('reply-text')).toBeDisabled()
})

test('a banned page is refused and the user goes home', async ({ page }) => {
  await page.goto(`/${pages.banned}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  await expect(page.getByText('Warning').first()).toBeVisible()
})

test("a banned page's card on home says so before it is opened; the others say nothing", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/')
  const banned = page.locator(`[data-testid="page-card"][href="/${pages.banned}"]`)
  await expect(banned).toHaveAttribute('data-standing', 'banned', { timeout: 20_000 })
  await expect(banned.getByTestId('page-card-standing')).toHaveText('Banned from Pagecast. Contact support.')
  await expect(page.getByTestId('page-card-standing')).toHaveCount(1)
  await banned.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'tests/artifacts/screenshots/home-banned-card.png' })
})

test('a page whose trial was used is refused with a lasting message and a buy button', async ({ page }) => {
  await page.goto(`/${pages.trialUsed}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  const message = page.getByText(
    'This page has already been used for a trial, in order to use it you have to subscribe.',
  )
  await expect(message).toBeVisible()
  await page.waitForTimeout(4_500)
  await expect(message).toBeVisible()
  await expect(page.getByRole('button', { name: 'Buy a subscription' })).toBeVisible()
})

test('a page token that expires in the middle of a send is refreshed and the reply goes once', async ({
  page,
  baseURL,
}) => {
  await openInbox(page, pages.small)
  await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'standard')
  await page.getByTestId('reply-text').fill('Sent after a token refresh')
  const res = await fetch(`${baseURL}/sandbox/tokens/expire`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: pages.small }),
  })
  expect(((await res.json()) as { expired: number }).expired).toBeGreaterThan(0)
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('reply-text')).toHaveValue('')
  await expect(
    page.getByTestId('chat-message').filter({ hasText: 'Sent after a token refresh' }),
  ).toBeVisible()
  const sent = (await sentLog(baseURL!)).filter((s) => s.text === 'Sent after a token refresh')
  expect(sent).toHaveLength(1)
})
