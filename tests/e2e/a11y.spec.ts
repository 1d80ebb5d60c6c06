/**
 * Every route in English and Urdu: no serious or critical axe violation, and screenshots at 360 px and
 * 1280 px kept as artefacts under tests/artifacts/screenshots.
 */
import { expect, test } from './support/fixtures.ts'
import { seriousViolations } from './support/axe.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

const SHOTS = 'tests/artifacts/screenshots'
const routes = [
  { name: 'home', path: '/', ready: 'page-card' },
  { name: 'affiliates', path: '/affiliates', ready: null },
  { name: 'account', path: '/account', ready: null },
  { name: 'billing', path: '/account/billing', ready: null },
] as const

for (const locale of ['en', 'ur'] as const) {
  test.describe(`in ${locale}`, () => {
    // axe is injected as a script tag, which the app's strict CSP would (rightly) refuse.
    // Service workers are blocked so page.route sees every API call.
    test.use({ locale: locale === 'en' ? 'en-US' : 'ur-PK', bypassCSP: true, serviceWorkers: 'block' })

    test('the login screen and the terms gate pass axe and are captured', async ({ page }) => {
      await page.goto('/')
      await expect(page.getByRole('button').last()).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-login-${width}.png`, fullPage: true })
      }
      await page.setViewportSize({ width: 1280, height: 800 })
      // The gate shows whatever this worker's earlier tests accepted.
      await loginAnswers(page, { accepted_terms: false })
      // Signed in from the login screen just checked.
      await loginAsDemo(page, { acceptTerms: false, path: null })
      await expect(page.getByTestId('terms-box').locator('p').first()).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-terms-${width}.png` })
      }
    })

    test('every signed-in route passes axe and is captured at 360 and 1280 px', async ({ page }) => {
      await loginAsDemo(page)
      for (const route of routes) {
        await page.goto(route.path)
        await expect(page.getByTestId('app-layout')).toBeVisible()
        if (route.ready) await expect(page.getByTestId(route.ready).first()).toBeVisible()
        else await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        expect(await seriousViolations(page), route.path).toEqual([])
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 })
          await page.screenshot({ path: `${SHOTS}/${locale}-${route.name}-${width}.png` })
        }
        await page.setViewportSize({ width: 1280, height: 800 })
      }
      // The inbox belongs to its own suite; here it is only captured inside the shared layout.
      await page.goto('/')
      await page.getByTestId('page-card').first().click()
      await expect(page).toHaveURL(/\/\d+/)
      // Captured once the list and the first chat are drawn with their pictures (the page's background sync
      // goes on meanwhile and is not waited for).
      await expect(page.getByTestId('conversation-row').first()).toBeVisible()
      await expect(page.getByTestId('chat-message').first()).toBeVisible()
      await expect
        .poll(() =>
          page.evaluate(() =>
            Array.from(document.images).every((img) => {
              const r = img.getBoundingClientRect()
              const inView = r.width > 0 && r.bottom > 0 && r.top < innerHeight
              return !inView || img.complete
            }),
          ),
        )
        .toBe(true)
      // One main landmark per page: the layout's; the inbox's panes sit inside it.
      await expect(page.getByRole('main', { includeHidden: true })).toHaveCount(1)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-inbox-${width}.png` })
      }
      await page.setViewportSize({ width: 1280, height: 800 })
      // The user/subscription modal.
      await page.goto('/')
      await page.getByTestId('user-avatar').last().click()
      await expect(page.getByTestId('modal')).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      await page.screenshot({ path: `${SHOTS}/${locale}-user-modal-1280.png` })
      await page.setViewportSize({ width: 360, height: 800 })
      await page.screenshot({ path: `${SHOTS}/${locale}-user-modal-360.png` })
    })

    test('the plans page passes axe and is captured', async ({ page }) => {
      await page.route('**/api/v2/login', async (route) => {
        const res = await route.fetch()
        const body = await res.json()
        Object.assign(body.data.user.subscription, { access: false, referral: 'friend-1' })
        await route.fulfill({ response: res, json: body })
      })
      await loginAsDemo(page)
      await expect(page).toHaveURL(/\/plans$/)
      await expect(page.getByTestId('plan-card')).toHaveCount(8)
      await expect(page.getByTestId('referral-discount')).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-plans-${width}.png` })
      }
      await page.setViewportSize({ width: 1280, height: 800 })
      // A trial is told that message packs come after a plan.
      await page.goto('/plans?modal=addons')
      await expect(page.getByTestId('addons-need-plan')).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      await page.screenshot({ path: `${SHOTS}/${locale}-addons-modal-1280.png` })
    })
  })
}

test.describe('in the dark theme (the system asks for it)', () => {
  test.use({ locale: 'en-US', bypassCSP: true, serviceWorkers: 'block' })

  test('login, home and inbox are drawn dark and pass axe', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await page.goto('/')
    await expect(page.getByRole('button').last()).toBeVisible()
    expect(await background()).toBe('rgb(2, 6, 23)')
    await expect(page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]')).toHaveCount(
      1,
    )
    expect(await seriousViolations(page), 'login').toEqual([])
    await page.screenshot({ path: `${SHOTS}/dark-login-1280.png` })
    await loginAsDemo(page, { path: null })
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    expect(await seriousViolations(page), 'home').toEqual([])
    await page.screenshot({ path: `${SHOTS}/dark-home-1280.png` })
    await page.getByTestId('page-card').first().click()
    await expect(page.getByTestId('conversation-row').first()).toBeVisible()
    await expect(page.getByTestId('chat-message').first()).toBeVisible()
    // The customer's bubble is a dark surface with light text, not the light theme's grey.
    const bubble = page.getByTestId('chat-message').locator('div').first()
    await expect(bubble).toBeVisible()
    expect(await seriousViolations(page), 'inbox').toEqual([])
    await page.screenshot({ path: `${SHOTS}/dark-inbox-1280.png` })
    await page.setViewportSize({ width: 360, height: 740 })
    await page.screenshot({ path: `${SHOTS}/dark-inbox-360.png` })
  })

  test('an inbox whose list has not come yet passes axe: its status line is not a row of the list', async ({
    page,
  }) => {
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    // The page's conversations never answer: the list stays empty, with its status line saying it loads.
    await page.route(/\/conversations(\?|$)/, () => undefined)
    await page.goto(`/${pages.small}`)
    await expect(page.getByTestId('conversation-list-status')).toHaveText('Loading...')
    await expect(page.getByTestId('conversation-row')).toHaveCount(0)
    expect(await seriousViolations(page), 'loading inbox').toEqual([])
  })

  test('the account window and the bulk wizard are drawn dark and pass axe', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    // The account window over the dark page.
    await page.getByTestId('user-avatar').last().click()
    await expect(page.getByTestId('modal')).toBeVisible()
    expect(await seriousViolations(page), 'account window').toEqual([])
    await page.screenshot({ path: `${SHOTS}/dark-user-modal-1280.png` })
    // The bulk wizard's steps and notes.
    await page.goto(`/${pages.small}?bulk=1`)
    await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('bulk-loaded')).toBeVisible()
    expect(await seriousViolations(page), 'bulk wizard').toEqual([])
    await page.screenshot({ path: `${SHOTS}/dark-bulk-wizard-1280.png` })
  })
})
