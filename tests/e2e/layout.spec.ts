/** The shared layout: sidebar, header, banners, badge, redirects. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'

// page.route cannot see requests a service worker answers.
test.use({ serviceWorkers: 'block' })

test('the sidebar starts collapsed and the choice survives a reload', async ({ page }) => {
  await loginAsDemo(page)
  const sidebar = page.getByTestId('sidebar')
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true')
  await page.getByRole('button', { name: 'Expand sidebar' }).click()
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false')
  await expect(
    sidebar.getByRole('navigation', { name: 'Connected pages' }).getByRole('link').first(),
  ).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false')
  expect(await page.evaluate(() => localStorage.getItem('sidebar-collapsed'))).toBe('false')
  await page.getByRole('button', { name: 'Collapse sidebar' }).click()
  await page.reload()
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true')
})

test('the header has the affiliate banner, support link, message badge and avatar', async ({ page }) => {
  await loginAsDemo(page)
  const banner = page.getByTestId('affiliate-banner')
  await expect(banner).toBeVisible()
  await expect(page.getByRole('link', { name: 'Support', exact: true })).toHaveAttribute(
    'href',
    /^https?:\/\//,
  )
  const badge = page.getByTestId('message-badge')
  await expect(badge).toHaveText('500')
  await expect(badge).toHaveAttribute('data-tone', 'warning')
  await expect(page.getByTestId('user-avatar').first()).toHaveAttribute('src', /.+/)
  await banner.click()
  await expect(page).toHaveURL(/\/affiliates$/)
  await expect(page.getByRole('link', { name: 'Start Earning Money Now' })).toHaveAttribute(
    'target',
    '_blank',
  )
  await expect(page.getByText('You earn 20% of referred purchases for 60 days.')).toBeVisible()
  await expect(page.getByText('Your referrals get 15% off for 3 months.')).toBeVisible()
  await expect(page.getByText('The minimum payout is $10, paid through a payment service.')).toBeVisible()
})

test('a referred visitor sees no affiliate banner', async ({ page }) => {
  await loginAsDemo(page, { path: '/?referral=friend-42' })
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await expect(page.getByTestId('affiliate-banner')).toHaveCount(0)
})

test('unknown paths go home, /account and /account/billing show their titles', async ({ page }) => {
  await loginAsDemo(page)
  await page.goto('/account')
  await expect(page.getByRole('heading', { name: 'My page' })).toBeVisible()
  await page.goto('/account/billing')
  await expect(page.getByRole('heading', { name: 'billing' })).toBeVisible()
  await page.goto('/no/such/place')
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { name: 'Your pages' })).toBeVisible()
})

test('users with access are sent away from /plans', async ({ page }) => {
  await loginAsDemo(page)
  await page.goto('/plans')
  await expect(page).toHaveURL(/\/$/)
})

test('users without access are sent to /plans, which shows the eight plans and who they are', async ({
  page,
}) => {
  await loginAsDemo(page)
  await page.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    body.data.user.subscription.access = false
    await route.fulfill({ response: res, json: body })
  })
  await page.reload()
  await expect(page).toHaveURL(/\/plans$/)
  await expect(page.getByTestId('plan-card')).toHaveCount(8)
  await expect(page.getByTestId('plans-user')).toContainText('Dana Demo')
  await page.getByRole('radio', { name: 'Annual' }).click()
  await expect(page.getByTestId('plan-card').first()).toContainText('149.99')
})

test('the branded-messages banner asks for confirmation and goes away once authorised', async ({ page }) => {
  await page.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    body.data.user.subscription.available_messages = 40
    await route.fulfill({ response: res, json: body })
  })
  await loginAsDemo(page)
  const banner = page.getByTestId('branded-banner')
  await expect(banner).toBeVisible()
  await expect(page.getByTestId('message-badge')).toHaveAttribute('data-tone', 'danger')
  await banner.getByRole('button', { name: 'Authorise branded messages' }).click()
  const modal = page.getByTestId('modal')
  await expect(modal).toContainText('Do you want to authorise branded messages?')
  await modal.getByRole('button', { name: 'Not now' }).click()
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: 'Authorise branded messages' }).click()
  const confirmed = page.waitForRequest('**/api/v2/user/confirm-brand-messages-usage')
  await page.getByRole('button', { name: 'Yes, authorise' }).click()
  await confirmed
  await expect(banner).toHaveCount(0)
})

test('on a phone the branded-messages banner is a line and its buttons, steps aside over the list, and is put away for the session', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    // Not yet authorised, whatever a test before this one on the same account did.
    Object.assign(body.data.user.subscription, { available_messages: 40, use_branded_messages: false })
    await route.fulfill({ response: res, json: body })
  })
  await loginAsDemo(page)
  const banner = page.getByTestId('branded-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toContainText('the rest go out with a Pagecast footer')
  // Its words and its two buttons, not a column of words: the home screen keeps its room.
  const box = (await banner.boundingBox())!
  expect(box.height).toBeLessThanOrEqual(110)
  const put = (await banner.getByTestId('branded-banner-dismiss').boundingBox())!
  expect(Math.min(put.width, put.height)).toBeGreaterThanOrEqual(44)
  await page.screenshot({ path: 'tests/artifacts/layout/branded-banner-phone.png' })
  // Over a phone's conversation list it steps aside (the header's counter says the allowance there).
  await page.getByTestId('page-card').first().click()
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await expect(banner).toBeHidden()
  await page.goBack()
  await expect(banner).toBeVisible()
  // Put away, it stays away for the session, across a reload.
  await banner.getByTestId('branded-banner-dismiss').click()
  await expect(banner).toHaveCount(0)
  await page.reload()
  await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('message-badge')).toBeVisible()
  await expect(banner).toHaveCount(0)
})

test('a blocked unlimited subscriber sees the fair-use notice and no hidden badge', async ({ page }) => {
  await page.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    Object.assign(body.data.user.subscription, {
      is_unlimited: true,
      unlimited_blocked: true,
      available_messages: 0,
    })
    await route.fulfill({ response: res, json: body })
  })
  await loginAsDemo(page)
  await expect(page.getByTestId('fair-use-notice')).toContainText('violating our fair use policy')
  await expect(page.getByTestId('message-badge')).toBeVisible()
})

test('an unlimited subscriber who is not blocked sees no message counter', async ({ page }) => {
  await page.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    Object.assign(body.data.user.subscription, { is_unlimited: true, unlimited_blocked: false })
    await route.fulfill({ response: res, json: body })
  })
  await loginAsDemo(page)
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await expect(page.getByTestId('message-badge')).toHaveCount(0)
})

test('the layout is operable from the keyboard with a visible focus ring', async ({ page }) => {
  await loginAsDemo(page)
  await page.locator('body').click({ position: { x: 5, y: 400 } })
  const seen: string[] = []
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab')
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return null
      const style = getComputedStyle(el)
      return { label: el.getAttribute('aria-label') ?? el.textContent ?? '', outline: style.outlineStyle }
    })
    expect(focus).not.toBeNull()
    expect(focus!.outline).not.toBe('none')
    seen.push(focus!.label)
  }
  expect(seen).toEqual(expect.arrayContaining(['My subscription', 'Log out', 'Pagecast home']))
  await page.getByRole('button', { name: 'Expand sidebar' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false')
})
