/**
 * Every route in English and Urdu: no serious or critical axe violation, and screenshots at 360 px and
 * 1280 px kept as artefacts under tests/artifacts/screenshots.
 */
import { expect, test } from './support/fixtures.ts'
import { seriousViolations } from './support/axe.ts'
import { loginAsDemo } from './support/login.ts'

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
    test.use({ locale: locale === 'en' ? 'en-US' : 'ur-PK', bypassCSP: true })

    test('the login screen and the terms gate pass axe and are captured', async ({ page }) => {
      await page.goto('/')
      await expect(page.getByRole('button').last()).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-login-${width}.png`, fullPage: true })
      }
      await page.setViewportSize({ width: 1280, height: 800 })
      await loginAsDemo(page, { acceptTerms: false })
      await expect(page.getByTestId('terms-box').locator('p').first()).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.screenshot({ path: `${SHOTS}/${locale}-terms-${width}.png` })
      }
    })

    test('every signed-in route passes axe and is captured at 360 and 1280 px', async ({ page }) => {
      await loginAsDemo(page, { localeAgnostic: true })
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
      // The user/subscription modal and the plans modal, stacked.
      await page.goto('/')
      await page.getByTestId('user-avatar').last().click()
      await expect(page.getByTestId('modal')).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
      await page.screenshot({ path: `${SHOTS}/${locale}-user-modal-1280.png` })
      await page.setViewportSize({ width: 360, height: 800 })
      await page.screenshot({ path: `${SHOTS}/${locale}-user-modal-360.png` })
    })
  })
}
