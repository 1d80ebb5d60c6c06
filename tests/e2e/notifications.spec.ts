/**
 * The error catalogue (docs/product-rules.md#error-catalogue) on real API calls, and the five-notification
 * limit.
 */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'

// page.route cannot see requests a service worker answers.
test.use({ serviceWorkers: 'block' })

const MY_SUBSCRIPTION = '**/api/v2/user/subscriptions/my-subscription'

test('a 406 shows a yellow "Warning" with the server message', async ({ page }) => {
  await loginAsDemo(page)
  await page.route(MY_SUBSCRIPTION, (r) =>
    r.fulfill({ status: 406, json: { message: 'This page is banned.' } }),
  )
  await page.getByTestId('user-avatar').first().click()
  const note = page.getByTestId('notification').filter({ hasText: 'Warning' })
  await expect(note).toContainText('This page is banned.')
  await expect(note).toHaveAttribute('data-kind', 'warning')
})

test('each message of a 422 becomes a yellow "Please check."', async ({ page }) => {
  await loginAsDemo(page)
  await page.route(MY_SUBSCRIPTION, (r) =>
    r.fulfill({
      status: 422,
      json: { message: 'invalid', errors: { a: ['First problem'], b: ['Second problem'] } },
    }),
  )
  await page.getByTestId('user-avatar').first().click()
  const notes = page.getByTestId('notification').filter({ hasText: 'Please check.' })
  await expect(notes).toHaveCount(2)
  // The newest stands first, right under the header.
  await expect(notes.nth(0)).toContainText('Second problem')
  await expect(notes.nth(1)).toContainText('First problem')
  await expect(notes.nth(0)).toHaveAttribute('data-kind', 'warning')
})

test('a 500 and any other failure show a red "Internal Error", in the user’s words when the server gave none, and every failure is logged', async ({
  page,
}) => {
  const logged: string[] = []
  page.on('console', (m) => m.type() === 'error' && logged.push(m.text()))
  await loginAsDemo(page)
  await page.route(MY_SUBSCRIPTION, (r) =>
    r.fulfill({ status: 500, json: { message: 'Database unavailable' } }),
  )
  await page.getByTestId('user-avatar').first().click()
  const note = page.getByTestId('notification').filter({ hasText: 'Internal Error' })
  await expect(note).toContainText('Database unavailable')
  await expect(note).toHaveAttribute('data-kind', 'error')
  await page.keyboard.press('Escape')
  await page.unroute(MY_SUBSCRIPTION)
  await page.route(MY_SUBSCRIPTION, (r) => r.fulfill({ status: 418, body: 'teapot' }))
  await page.getByTestId('user-avatar').first().click()
  await expect(page.getByTestId('notification').filter({ hasText: 'Internal Error' })).toHaveCount(2)
  await expect(page.getByTestId('notification').first()).toContainText(
    'The server refused this request (error 418).',
  )
  expect(logged.some((l) => l.includes('API request failed') && l.includes('Database unavailable'))).toBe(
    true,
  )
})

test('a 401 ends the session and shows the login screen', async ({ page }) => {
  await loginAsDemo(page)
  await page.route(MY_SUBSCRIPTION, (r) => r.fulfill({ status: 401, json: { message: 'Unauthenticated.' } }))
  await page.getByTestId('user-avatar').first().click()
  await expect(page.getByTestId('login-button')).toBeVisible()
  expect((await page.context().cookies()).some((c) => c.name === 'pagecast_session' && c.value)).toBe(false)
})

test('at most five notifications show at once, and they close by themselves', async ({ page }) => {
  await loginAsDemo(page)
  const errors = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, [`Problem ${i}`]]))
  await page.route(MY_SUBSCRIPTION, (r) => r.fulfill({ status: 422, json: { message: 'invalid', errors } }))
  await page.getByTestId('user-avatar').first().click()
  const notes = page.getByTestId('notification')
  // The newest stands first.
  await expect(notes.first()).toContainText('Problem 7')
  await expect(notes).toHaveCount(5)
  // They close by themselves after 4 s.
  await expect(notes).toHaveCount(0, { timeout: 6_000 })
})
