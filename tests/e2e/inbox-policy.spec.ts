/** The chat reply under the other messaging policies: HUMAN_AGENT between 24 h and 7 days, and legacy tags. */
import { expect, type Page } from '@playwright/test'
import { stackTest } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, rowCount, scrollListToEnd, sentLog } from './inbox-support.ts'

const withStack = stackTest

/** Clicks rows further down the list until one has the wanted window reason. */
async function findConversation(page: Page, reason: string): Promise<void> {
  for (let i = 0; i < 40 && (await rowCount(page)) < 600; i++) {
    await scrollListToEnd(page)
    await page.waitForTimeout(150)
  }
  const list = page.getByTestId('conversation-list')
  const notice = page.getByTestId('window-notice')
  for (let index = 280; index < 600; index += 15) {
    await list.evaluate((el, top) => el.scrollTo({ top }), index * 64)
    await page.getByTestId('conversation-row').nth(3).click()
    await page.waitForTimeout(400)
    if ((await notice.getAttribute('data-reason')) === reason) return
  }
  throw new Error(`no conversation with window reason ${reason}`)
}

const humanAgent = withStack({ HUMAN_AGENT_ENABLED: 'true' })

humanAgent(
  'between 24 hours and 7 days a reply goes as HUMAN_AGENT when that permission is enabled',
  async ({ page, baseURL }) => {
    humanAgent.setTimeout(150_000)
    await loginAsDemo(page)
    await openInbox(page)
    await findConversation(page, 'human_agent')
    await expect(page.getByTestId('window-notice')).toContainText('human agent')
    await page.getByTestId('reply-text').fill('A personal answer')
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('reply-text')).toHaveValue('')
    const sent = (await sentLog(baseURL!)).filter((s) => s.text === 'A personal answer')
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' })
  },
)

const legacy = withStack({ MESSAGING_POLICY: 'legacy', SANDBOX_POLICY: 'legacy' })

legacy('under the legacy policy a chat reply is tagged CONFIRMED_EVENT_UPDATE', async ({ page, baseURL }) => {
  await loginAsDemo(page)
  await openInbox(page)
  await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'legacy')
  await page.getByTestId('reply-text').fill('Your order is confirmed')
  await page.getByTestId('reply-send').click()
  await expect(page.getByTestId('reply-text')).toHaveValue('')
  const sent = (await sentLog(baseURL!)).filter((s) => s.text === 'Your order is confirmed')
  expect(sent).toHaveLength(1)
  expect(sent[0]).toMatchObject({ messaging_type: 'MESSAGE_TAG', tag: 'CONFIRMED_EVENT_UPDATE' })
})
