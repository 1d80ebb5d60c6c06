/**
 * Thumbs on a 360 x 740 phone: every visible control of every screen is at least 44 x 44 CSS px, or its whole
 * label row is. The walk visits the login screen, the terms, home, the account menu, the open sidebar, the
 * account and affiliate pages, an inbox, a chat with an image attached and its saved replies, the bulk
 * wizard's three steps, the send cards with a running and a scheduled send, the confirmations of the
 * destructive actions, the plans, add-ons and the marketing sheet. The offenders are printed per screen
 * (and attached to the report) before the test fails on them; a screenshot of each screen goes to
 * tests/artifacts/tap-targets/.
 */
import { mkdirSync } from 'node:fs'
import { type Page, expect } from '@playwright/test'
import { stackTest } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'
import { pressContinue } from './support/dialog.ts'
import { settled } from './support/settled.ts'
import { smallTargets } from './support/targets.ts'
import { waitForSent } from './bulk-support.ts'

// The sends are paced at the real speed: the running send is still running when its card is measured.
const test = stackTest({ PACING_SCALE: '1' })
const SHOTS = 'tests/artifacts/tap-targets'

const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

class Survey {
  readonly offenders: string[] = []
  constructor(private readonly page: Page) {
    mkdirSync(SHOTS, { recursive: true })
  }

  async screen(name: string): Promise<void> {
    // Transitions (the sidebar's width, a sheet sliding in) end before the measure.
    await settled(this.page)
    await this.page.screenshot({ path: `${SHOTS}/${name}.png` })
    const small = await smallTargets(this.page)
    const lines = small.map((s) => `${name}: ${s.name} ${s.width} x ${s.height}`)
    if (lines.length > 0) console.log(lines.join('\n'))
    this.offenders.push(...lines)
  }
}

function inputValue(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
}

test('every control on every screen is at least 44 x 44 px at 360 px', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  const survey = new Survey(page)

  await page.goto('/')
  await expect(page.getByTestId('login-button')).toBeVisible()
  await survey.screen('login')

  await loginAsDemo(page, { acceptTerms: false })
  const terms = page.getByTestId('terms-gate')
  if (await terms.isVisible()) {
    await survey.screen('terms')
    await page.getByTestId('accept-terms').click()
  }
  await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
  await survey.screen('home')

  await page.getByTestId('user-avatar').first().click()
  await expect(page.getByTestId('modal')).toBeVisible()
  await expect(
    page.getByTestId('my-subscription').or(page.getByText('You have no paid subscription yet.')),
  ).toBeVisible()
  await survey.screen('account-menu')
  // The language and the account page are one tap each from the account menu.
  await expect(page.getByTestId('account-menu').getByRole('combobox', { name: 'Language' })).toBeVisible()
  await page.getByTestId('account-menu-account').click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('notifications-section')).toBeVisible()
  await page.goBack()
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  await expect(page.getByTestId('modal')).toHaveCount(0)

  await page.getByRole('button', { name: 'Expand sidebar' }).click()
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false')
  await survey.screen('sidebar-open')
  // Logging out asks once, even with nothing unsent, saying what it deletes; Back stays signed in.
  await page.getByTestId('user-section').getByRole('button', { name: 'Log out' }).click()
  await expect(page.getByTestId('sign-out-confirm')).toContainText(
    'Signing out deletes everything Pagecast keeps on this device.',
  )
  await survey.screen('confirm-sign-out')
  await page.goBack()
  await expect(page.getByTestId('sign-out-confirm')).toHaveCount(0)
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await page.getByRole('button', { name: 'Collapse sidebar' }).click()

  await page.goto('/?modal=plans')
  await expect(page.getByTestId('plan-card').first()).toBeVisible({ timeout: 20_000 })
  await survey.screen('plans')
  await page.goto('/?modal=addons')
  await expect(page.getByTestId('modal')).toBeVisible()
  await page.waitForLoadState('networkidle')
  await survey.screen('addons')

  await page.goto('/account')
  await expect(page.getByTestId('notifications-section')).toBeVisible()
  await page.waitForLoadState('networkidle')
  await survey.screen('account')
  await page.goto('/affiliates')
  await expect(page.getByRole('link', { name: 'Start Earning Money Now' })).toBeVisible()
  await survey.screen('affiliates')

  // The inbox, then a chat with an image attached and its saved replies.
  await page.goto(`/${pages.small}`)
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await survey.screen('inbox')
  await page.getByTestId('conversation-row').first().click()
  await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
  await page
    .getByTestId('reply-image')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PHOTO })
  await expect(page.getByTestId('reply-image-preview')).toBeVisible()
  await survey.screen('chat-with-image')
  await page.getByTestId('saved-replies-open').click()
  await expect(page.getByTestId('saved-replies')).toBeVisible()
  await survey.screen('saved-replies')
  await page.goBack()
  await expect(page.getByTestId('saved-replies')).toHaveCount(0)

  // The marketing sheet: what it is, then the ad accounts after the added permissions.
  await page.goto(`/${pages.large}?modal=marketing`)
  const dialog = page.getByTestId('modal')
  const explain = dialog.getByTestId('marketing-explain')
  await expect(explain.or(dialog.getByTestId('marketing-status'))).toBeVisible({ timeout: 20_000 })
  await survey.screen('marketing')
  if (await explain.isVisible()) {
    const popupPromise = page.waitForEvent('popup')
    await dialog.getByRole('button', { name: 'Continue' }).click()
    const popup = await popupPromise
    await popup.waitForLoadState('domcontentloaded')
    await pressContinue(popup)
    await expect(dialog.getByTestId('marketing-accounts')).toBeVisible({ timeout: 20_000 })
    await survey.screen('marketing-ad-accounts')
  }

  // The wizard's three steps; first a send scheduled for tomorrow, then one that runs.
  await page.goto(`/${pages.small}?bulk=1`)
  await expect(page.getByTestId('bulk-loaded')).toHaveText(/^\d+ recipients loaded/, { timeout: 20_000 })
  await survey.screen('wizard-1-audience')
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await survey.screen('wizard-2-content')
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill('Tap targets, later')
  await page.getByTestId('bulk-later').check()
  const tomorrow = new Date()
  tomorrow.setDate(tomorrow.getDate() + 1)
  tomorrow.setHours(9, 0, 0, 0)
  await page.getByTestId('bulk-later-at').fill(inputValue(tomorrow))
  await survey.screen('wizard-3-compose')
  await page.getByTestId('bulk-send').click()
  await expect(page.getByTestId('bulk-panel')).toBeVisible({ timeout: 20_000 })

  await page.goto(`/${pages.small}?bulk=1`)
  await expect(page.getByTestId('bulk-loaded')).toHaveText(/^\d+ recipients loaded/, { timeout: 20_000 })
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill('Tap targets, now')
  await page.getByTestId('bulk-send').click()
  await expect(page.getByText(/Sending message to \d+ recipients, well done!/)).toBeVisible({
    timeout: 20_000,
  })
  // Under way (its lease taken here) before the page is loaded again.
  await waitForSent(baseURL!, 'Tap targets, now', 1)
  await page.goto(`/${pages.small}`)
  const toggle = page.getByTestId('bulk-strip-toggle')
  await expect(toggle).toBeVisible()
  await survey.screen('send-strip-closed')
  await toggle.click()
  await expect(page.getByTestId('bulk-card').first()).toHaveAttribute('data-state', 'running')
  await expect(page.getByTestId('bulk-scheduled-card').first()).toBeVisible()
  await survey.screen('send-cards-open')

  // The destructive actions ask first.
  await page.getByTestId('bulk-card').first().getByTestId('bulk-card-cancel').click()
  await expect(page.getByRole('dialog')).toContainText('Stop this send?')
  await survey.screen('confirm-cancel-running')
  await page.goBack()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByTestId('bulk-card').first()).toHaveAttribute('data-state', 'running')
  await page.getByTestId('bulk-scheduled-card').first().getByTestId('bulk-scheduled-cancel').click()
  await expect(page.getByRole('dialog')).toContainText('Cancel this scheduled send?')
  await survey.screen('confirm-cancel-scheduled')
  await page.goBack()
  await expect(page.getByTestId('bulk-scheduled-card').first()).toBeVisible()
  await page.getByTestId('bulk-scheduled-card').first().getByTestId('bulk-scheduled-edit').click()
  await expect(page.getByTestId('scheduled-edit-save')).toBeVisible()
  await survey.screen('edit-scheduled')
  await page.goBack()
  await page.getByTestId('bulk-card').first().getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByTestId('bulk-card').first()).toHaveAttribute('data-state', 'paused')

  test.info().annotations.push({
    type: 'small tap targets',
    description: survey.offenders.length > 0 ? survey.offenders.join('\n') : 'none',
  })
  expect(survey.offenders, 'controls under 44 x 44 px (screen: control width x height)').toEqual([])
})
