/** The allowance: fewer messages than recipients, with and without branded messages, and none at all. */
import {
  apiToken,
  authoriseBranded,
  available,
  bulkTest,
  checkDelivery,
  eligible,
  expect,
  expectCardCounts,
  freshStackTest,
  login,
  openWizard,
  pages,
  sentLog,
  spendDownTo,
  waitForCard,
} from './bulk-support.ts'

/**
 * The tests without branded messages share a stack of their own, in the order of this file: the first sends
 * the last 7 messages of the trial, and the one with nothing available starts from the 0 it leaves (it spends
 * down to 0 itself when it runs alone).
 */
const test = bulkTest(undefined, 'allowance')
/** Branded messages, once authorised, stay so for the user: that test starts from a new user's trial. */
const brandedTest = freshStackTest()

test.beforeEach(async ({ page }) => {
  await login(page)
})

test('with fewer messages available than recipients, only the first N are sent', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const token = await apiToken(page)
  await spendDownTo(baseURL!, token, pages.small, 7)
  const expected = await eligible(baseURL!, pages.small)
  await openWizard(page)
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await expect(page.getByTestId('bulk-truncated')).toHaveText('This message will be sent only to 7 users', {
    timeout: 10_000,
  })
  await page.getByTestId('bulk-text').fill('Only seven')
  await page.getByTestId('bulk-send').click()
  await waitForCard(page, 'finished')
  const ids = checkDelivery(await sentLog(baseURL!), 'Only seven', expected)
  expect(ids).toHaveLength(7)
  await expectCardCounts(page, 7, 0)
  expect(await available(baseURL!, token)).toBe(0)
})

brandedTest(
  'with branded messages authorised, everyone is reached and those beyond the allowance carry the footer',
  async ({ page, baseURL }) => {
    brandedTest.setTimeout(120_000)
    const token = await apiToken(page)
    await spendDownTo(baseURL!, token, pages.small, 5)
    await authoriseBranded(baseURL!, token)
    await page.reload()
    const expected = await eligible(baseURL!, pages.small)
    await openWizard(page)
    await page.getByTestId('bulk-step-2').getByRole('button').first().click()
    await page.getByTestId('bulk-step-3').getByRole('button').first().click()
    await expect(page.getByTestId('bulk-branded')).toBeVisible({ timeout: 10_000 })
    await page.getByTestId('bulk-text').fill('Branded hello')
    await page.getByTestId('bulk-send').click()
    await waitForCard(page, 'finished')
    const sent = (await sentLog(baseURL!)).filter((s) => s.text?.startsWith('Branded hello'))
    const ids = checkDelivery(sent, 'Branded hello', expected)
    expect(ids.sort()).toEqual([...expected.inside].sort())
    expect(sent.filter((s) => s.text!.includes('Sent with Pagecast'))).toHaveLength(
      expected.inside.length - 5,
    )
    await expectCardCounts(page, expected.inside.length, 0)
    expect(await available(baseURL!, token)).toBe(0)
  },
)

test('with nothing available, sending is refused with the persistent warning and a buy button', async ({
  page,
  baseURL,
}) => {
  const token = await apiToken(page)
  await spendDownTo(baseURL!, token, pages.small, 0)
  await openWizard(page)
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill('Nothing left to send this with')
  // docs/product-rules.md#when-the-allowance-is-short: sending is refused with a persistent warning and a buy
  // button, not a disabled button.
  await page.getByTestId('bulk-send').click()
  const warning = page
    .getByTestId('notification')
    .filter({ hasText: "You don't have any messages available" })
  await expect(warning).toContainText('Please purchase a subscription to send messages', { timeout: 10_000 })
  await expect(warning.getByRole('button', { name: 'Buy' })).toBeVisible()
  await page.waitForTimeout(4_500)
  await expect(warning).toBeVisible()
  expect((await sentLog(baseURL!)).length).toBe(0)
})
