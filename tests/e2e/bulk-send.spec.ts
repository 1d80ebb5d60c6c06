/** Bulk sends on the sandbox's small page: delivery exactly once, the window, the cards, the allowance. */
import {
  apiToken,
  available,
  bulkTest,
  login,
  PNG,
  checkDelivery,
  composeAndSend,
  eligible,
  expect,
  openWizard,
  pages,
  sentLog,
  waitForCard,
} from './bulk-support.ts'

const test = bulkTest()

test.beforeEach(async ({ page }) => {
  await login(page)
})

test('a plain send reaches every recipient inside the window exactly once and spends one message each', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const expected = await eligible(baseURL!, pages.small)
  const token = await apiToken(page)
  const before = await available(baseURL!, token)
  const inside = await openWizard(page)
  expect(inside).toBe(expected.inside.length)
  await composeAndSend(page, 'Plain hello')
  const card = await waitForCard(page, 'finished')
  const ids = checkDelivery(await sentLog(baseURL!), 'Plain hello', expected)
  expect(ids.sort()).toEqual([...expected.inside].sort())
  await expect(card.getByTestId('bulk-card-summary')).toHaveText(
    `Successfully sent ${ids.length} messages, 0 rejected`,
  )
  expect(before - (await available(baseURL!, token))).toBe(ids.length)
})

test('an image send uploads the image once and reuses its attachment id', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const expected = await eligible(baseURL!, pages.small)
  await openWizard(page)
  await composeAndSend(page, 'With a picture', PNG)
  await waitForCard(page, 'finished')
  const sent = await sentLog(baseURL!)
  checkDelivery(sent, 'With a picture', expected)
  const images = sent.filter((s) => s.attachment)
  expect(images).toHaveLength(expected.inside.length)
  const ids = new Set(images.map((s) => JSON.stringify(s.attachment)))
  expect(ids.size).toBe(1)
  expect([...ids][0]).toContain('attachment_id')
})
