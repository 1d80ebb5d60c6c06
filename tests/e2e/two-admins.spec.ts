/**
 * Two people who manage one page, each signed in with their own network account in their own browser: Dana
 * (the demo owner, on a phone, 360 x 740) and Ana (her partner, who subscribes first: the page's trial was
 * Dana's). A customer asks a question; both open the chat. Ana typing shows Dana "Ana Partner is replying…"
 * (on the screen, uncut, in English and in Urdu); Ana's reply takes the row out of Dana's Needs reply list
 * without a reload, as does her "done"; labels Ana puts on the customer show in Dana's open chat and list.
 */
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test'
import { openInbox, pages } from './inbox-support.ts'
import { newCustomerWrites, streamOpen } from './live-support.ts'
import { openCheckoutTab, payInCheckout } from './support/checkout.ts'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'

const PHONE = { width: 360, height: 740 }
const LIVE = 20_000
/** The login dialog's third account: Ana Partner, who manages the demo's pages with Dana. */
const PARTNER = { account: 2 }
const PARTNER_NAME = 'Ana Partner'

const rowOf = (page: Page, conversationId: string) =>
  page.locator(`[data-testid="conversation-row"][data-conversation-id="${conversationId}"]`)

async function signedIn(
  browser: Browser,
  baseURL: string,
  options: { locale?: string; viewport?: typeof PHONE; account?: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  })
  const page = await context.newPage()
  await loginAsDemo(page, { account: options.account ?? 0 })
  return { context, page }
}

/**
 * Ana opens the page. The first time, its trial is already Dana's: she is refused with the buy button and
 * subscribes through the sandbox's checkout (the app comes back in the checkout's tab), then opens it again.
 */
async function partnerOpensPage(page: Page): Promise<Page> {
  await page.goto(`/${pages.small}`)
  const refused = page.getByRole('button', { name: 'Buy a subscription' })
  const inbox = page.getByTestId('conversation-row').first()
  await expect(refused.or(inbox)).toBeVisible({ timeout: LIVE })
  if (await inbox.isVisible()) return page
  await refused.click()
  const tab = await openCheckoutTab(page)
  await payInCheckout(tab)
  await page.close()
  await openInbox(tab, pages.small)
  return tab
}

/** The box lies inside the phone's screen and its text is not cut. */
async function expectOnScreen(el: Locator) {
  const box = (await el.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(-0.5)
  expect(box.y).toBeGreaterThanOrEqual(-0.5)
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 0.5)
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height + 0.5)
  const cut = await el.evaluate(
    (node) => node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1,
  )
  expect(cut, 'the replying line is cut').toBe(false)
}

/** Both open the page; a new customer asks; both open the chat from their list. */
async function bothInTheChat(browser: Browser, baseURL: string, locale?: string) {
  const dana = await signedIn(browser, baseURL, { viewport: PHONE, locale })
  await openInbox(dana.page, pages.small)
  await streamOpen(dana.page)
  const ana = await signedIn(browser, baseURL, PARTNER)
  const anaPage = await partnerOpensPage(ana.page)
  await streamOpen(anaPage)
  const asked = await newCustomerWrites(baseURL, pages.small, 'Paolo Reyes', 'Do you have it in size M?')
  for (const page of [dana.page, anaPage])
    await expect(rowOf(page, asked.conversation_id).getByTestId('conversation-needs-reply')).toBeVisible({
      timeout: LIVE,
    })
  return { dana, ana, anaPage, asked }
}

test("two people of one page see who is replying, the answered row leave Needs reply, and each other's labels", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const { dana, ana, anaPage, asked } = await bothInTheChat(browser, baseURL!)
  const danaRow = rowOf(dana.page, asked.conversation_id)
  try {
    // Dana keeps the Needs reply filter on (in the address) and opens the chat from it.
    await dana.page.getByTestId('list-filter-needs_reply').click()
    await expect(dana.page).toHaveURL(/filter=needs_reply/)
    await danaRow.click()
    await expect(dana.page.getByTestId('reply-text')).toBeVisible({ timeout: LIVE })
    await rowOf(anaPage, asked.conversation_id).click()
    await expect(anaPage.getByTestId('chat-labels')).toBeEnabled({ timeout: LIVE })

    // Ana types: Dana sees her name, on the screen and uncut.
    await anaPage.getByTestId('reply-text').fill('Yes, size M is here')
    const replying = dana.page.getByTestId('chat-replying')
    await expect(replying).toHaveText(`${PARTNER_NAME} is replying…`, { timeout: LIVE })
    await expectOnScreen(replying)

    // Dana goes back to her Needs reply list: the row waits. Ana sends: it leaves, without a reload.
    await dana.page.goBack()
    await expect(dana.page).toHaveURL(/filter=needs_reply/)
    await expect(danaRow.getByTestId('conversation-needs-reply')).toBeVisible()
    await anaPage.getByTestId('reply-send').click()
    await expect(anaPage.getByTestId('chat-mark-done')).toBeHidden({ timeout: LIVE })
    await expect(danaRow).toHaveCount(0, { timeout: LIVE })

    // Dana opens the chat again from the whole list; Ana puts a label on the customer: it shows there.
    await dana.page.getByTestId('list-filter-all').click()
    await danaRow.click()
    await expect(dana.page.getByTestId('chat-labels')).toBeEnabled({ timeout: LIVE })
    await expect(dana.page.getByTestId('chat-label-names')).toHaveCount(0)
    await anaPage.getByTestId('chat-labels').click()
    await anaPage.getByTestId('label-new-name').fill('Talla M')
    await anaPage.getByTestId('label-create').click()
    await expect(anaPage.getByTestId('chat-label-names')).toContainText('Talla M', { timeout: LIVE })
    await expect(dana.page.getByTestId('chat-label-names')).toContainText('Talla M', { timeout: LIVE })

    // Back on her list, Dana sees a label Ana puts on the customer meanwhile in the list's label filter.
    await dana.page.goBack()
    await expect(danaRow).toBeVisible()
    await anaPage.getByTestId('label-new-name').fill('Mayoreo')
    await anaPage.getByTestId('label-create').click()
    await expect(anaPage.getByTestId('chat-label-names')).toContainText('Mayoreo', { timeout: LIVE })
    const chip = dana.page.getByTestId('label-filter-chip').filter({ hasText: 'Mayoreo' })
    await expect(chip).toContainText('1', { timeout: LIVE })
    await chip.click()
    await expect(dana.page.getByTestId('conversation-row')).toHaveCount(1)
    await expect(danaRow).toBeVisible()
  } finally {
    await dana.context.close()
    await ana.context.close()
  }
})

test('Dana in Urdu sees Ana\'s name replying, right to left, on the screen, and Ana\'s "done" live', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const { dana, ana, anaPage, asked } = await bothInTheChat(browser, baseURL!, 'ur-PK')
  try {
    await expect(dana.page.locator('html')).toHaveAttribute('dir', 'rtl')
    await rowOf(dana.page, asked.conversation_id).click()
    await expect(dana.page.getByTestId('reply-text')).toBeVisible({ timeout: LIVE })
    await rowOf(anaPage, asked.conversation_id).click()
    await anaPage.getByTestId('reply-text').fill('Yes, size M is here')
    const replying = dana.page.getByTestId('chat-replying')
    await expect(replying).toContainText(PARTNER_NAME, { timeout: LIVE })
    await expect(replying).not.toContainText('is replying')
    await expect(replying).toHaveCSS('direction', 'rtl')
    await expectOnScreen(replying)

    // Ana marks it done instead of answering: Dana's row stops needing a reply, without a reload.
    await dana.page.goBack()
    const danaRow = rowOf(dana.page, asked.conversation_id)
    await expect(danaRow.getByTestId('conversation-needs-reply')).toBeVisible()
    await anaPage.getByTestId('chat-mark-done').click()
    await expect(danaRow).not.toHaveAttribute('data-needs-reply', 'true', { timeout: LIVE })
    await expect(danaRow.getByTestId('conversation-needs-reply')).toHaveCount(0)
  } finally {
    await dana.context.close()
    await ana.context.close()
  }
})
