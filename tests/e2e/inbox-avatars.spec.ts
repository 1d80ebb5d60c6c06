/** The chat's customer link and the avatars' default image (docs/product-rules.md#chat). */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox } from './inbox-support.ts'

test.use({ serviceWorkers: 'block' })

test('the customer’s name links to the conversation on the network, never to a page-scoped id', async ({
  page,
}) => {
  await loginAsDemo(page)
  await openInbox(page)
  const name = page.getByTestId('chat-customer-name')
  await expect(name).toBeVisible()
  // The name and the date are one target: the link around them.
  const href = (await name.locator('xpath=ancestor::a[1]').getAttribute('href')) ?? ''
  expect(href).toMatch(/^https:\/\/www\.facebook\.com\/\d+\/inbox\/t_\d+$/)
})

test('a customer picture that cannot load is replaced by the default image', async ({ page }) => {
  await loginAsDemo(page)
  await page.route('**/picture?**', (r) => r.fulfill({ status: 404, body: '' }))
  await openInbox(page)
  const avatar = page.getByTestId('conversation-row').first().locator('img')
  await expect(avatar).toHaveAttribute('data-testid', 'avatar-fallback')
  await expect(avatar).toHaveAttribute('src', /default-avatar|^data:image\/svg/)
  expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
})
