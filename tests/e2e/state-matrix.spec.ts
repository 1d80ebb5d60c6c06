/**
 * Every subscription state (docs/architecture.md#testing-states), in English, Urdu and Bengali, on a phone
 * upright (360 x 740) and turned (740 x 360): home, the inbox, a chat, the bulk wizard's three steps (and the
 * refusal where nothing can be sent), the plans and the account page keep their layout. On each screen: the
 * inbox shows at least 7 whole rows upright, every customer name has room for 8 characters (or its whole
 * name), every control is at least 44 x 44, nothing covers a text box or its Send button, and no text is cut.
 * A state without access shows the plans wherever it goes.
 *
 * One browser context per state and language walks the screens, and each screen is measured at both sizes
 * by turning the phone (setting the viewport) where it stands: a sign-in per context, not per size. The
 * failures are listed per cell (state, language, size) and screen before the test fails on them; screenshots
 * go to tests/artifacts/state-matrix/<state>-<lang>-<w>x<h>-<screen>.png.
 */
import { mkdirSync } from 'node:fs'
import { type Page, expect } from '@playwright/test'
import { SUBSCRIPTION_STATES, type SubscriptionStateName } from '../../src/core/contracts/testing.ts'
import { stackTest } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'
import { coveredTargets, shortNames, visibleRows } from './support/screen-layout.ts'
import { settled } from './support/settled.ts'
import { TEST_ROUTES_ENV, putSubscription } from './support/states.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

const test = stackTest(TEST_ROUTES_ENV)
const DIR = 'tests/artifacts/state-matrix'
const LANGUAGES = ['en', 'ur', 'bn'] as const
const UPRIGHT = { width: 360, height: 740 }
const SIZES = [UPRIGHT, { width: 740, height: 360 }] as const
type Size = (typeof SIZES)[number]
/** Whole rows the inbox shows on a phone held upright with no card open. */
const MIN_ROWS = 7
/** States whose send is refused: nothing is left to spend. */
const REFUSED: readonly SubscriptionStateName[] = ['none-left', 'unlimited-blocked']
const CHAT_COMPOSER = ['composer', 'reply-text', 'reply-send']
const BULK_COMPOSER = ['bulk-text', 'bulk-send']

test.use({ locale: 'en-US', viewport: UPRIGHT, hasTouch: true, isMobile: true })
// The cells share nothing but the worker's stack (each signs in and sets its own state): both workers take them.
test.describe.configure({ mode: 'parallel' })

interface Checks {
  /** The elements nothing may cover. */
  uncovered?: readonly string[]
  /** They are reached by scrolling (a long form), not on screen as it opens. */
  scrolled?: boolean
  /** The screen is the inbox's list: count its whole rows. */
  rows?: boolean
}

/** One state and language: its screens measured at each size, the failures named by cell and screen. */
class Cells {
  readonly failures: string[] = []
  constructor(
    private readonly page: Page,
    private readonly state: SubscriptionStateName,
    private readonly lang: string,
  ) {
    mkdirSync(DIR, { recursive: true })
  }

  /** The current screen measured at every size. */
  async screen(name: string, checks: Checks = {}): Promise<void> {
    for (const size of SIZES) await this.measure(name, size, checks)
    await this.page.setViewportSize(UPRIGHT)
  }

  private async measure(screen: string, size: Size, checks: Checks): Promise<void> {
    const { page } = this
    await page.setViewportSize(size)
    await page.evaluate(() => document.fonts.ready)
    await page.evaluate(() => window.scrollTo(0, 0))
    await settled(page)
    const cell = `${this.state}-${this.lang}-${size.width}x${size.height}`
    await page.screenshot({ path: `${DIR}/${cell}-${screen}.png` })
    const fail = (line: string) => this.failures.push(`${cell} ${screen}: ${line}`)
    if (checks.rows && size === UPRIGHT) {
      const rows = await visibleRows(page)
      if (rows < MIN_ROWS) fail(`${rows} whole rows shown, at least ${MIN_ROWS} needed`)
    }
    for (const n of await shortNames(page)) fail(`name «${n.name}» ${n.width} px wide, needs ${n.needs} px`)
    for (const s of await smallTargets(page)) fail(`target ${s.name} ${s.width} x ${s.height}`)
    for (const m of await misfits(page))
      fail(`text ${m.kind} by ${m.by}px «${m.text}»${m.other ? ` / «${m.other}»` : ''}`)
    // Last: reaching a form's end scrolls the screen the other measures took as it opened.
    for (const c of await coveredTargets(page, checks.uncovered ?? [], checks.scrolled))
      fail(`${c.target} covered by ${c.by}`)
  }
}

/** A state without access: every route leads to the plans, which are measured once. */
async function walkWithoutAccess(page: Page, cells: Cells): Promise<void> {
  for (const path of ['/', `/${pages.small}`, `/${pages.small}?bulk=1`, '/account']) {
    await page.goto(path)
    await expect(page).toHaveURL(/\/plans$/, { timeout: 20_000 })
  }
  await expect(page.getByTestId('plans-user')).toBeVisible({ timeout: 20_000 })
  await cells.screen('plans')
}

async function walk(page: Page, cells: Cells, state: SubscriptionStateName): Promise<void> {
  await page.goto('/')
  await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
  await cells.screen('home')

  // The small page (30 conversations, more than a phone shows): the large one's sync would load the machine
  // for the rest of every cell.
  await page.goto(`/${pages.small}`)
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await cells.screen('inbox', { rows: true })

  await page.getByTestId('conversation-row').first().click()
  await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('reply-text')).toBeVisible()
  await cells.screen('chat', { uncovered: CHAT_COMPOSER })

  await page.goto(`/${pages.small}?bulk=1`)
  await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('bulk-group-none')).toBeVisible({ timeout: 20_000 })
  await cells.screen('bulk-audience')
  const step2 = page.getByTestId('bulk-step-2').getByRole('button').first()
  await expect(step2).toBeEnabled({ timeout: 20_000 })
  await step2.click()
  await cells.screen('bulk-content')
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill('Our shop opens at 9 tomorrow')
  await cells.screen('bulk-compose', { uncovered: BULK_COMPOSER, scrolled: true })
  if (REFUSED.includes(state)) {
    // docs/product-rules.md#when-the-allowance-is-short: a persistent warning with a buy button.
    await page.getByTestId('bulk-send').click()
    const warning = page.locator('[data-testid="notification"][data-kind="warning"]')
    await expect(warning.getByRole('button')).toHaveCount(2, { timeout: 10_000 })
    await cells.screen('bulk-refusal', { uncovered: BULK_COMPOSER, scrolled: true })
  }

  await page.goto('/?modal=plans')
  await expect(page.getByTestId('modal')).toBeVisible({ timeout: 20_000 })
  await cells.screen('plans')

  await page.goto('/account')
  await expect(page.getByTestId('notifications-section')).toBeVisible({ timeout: 20_000 })
  await cells.screen('account')
}

for (const state of SUBSCRIPTION_STATES) {
  for (const lang of LANGUAGES) {
    test(`${state} in ${lang}: every screen keeps its layout upright and turned`, async ({ page }) => {
      test.setTimeout(180_000)
      await page.addInitScript((code) => localStorage.setItem('pagecast-locale', code), lang)
      await loginAsDemo(page)
      await putSubscription(page, state)
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      const cells = new Cells(page, state, lang)
      if (state === 'no-access') await walkWithoutAccess(page, cells)
      else await walk(page, cells, state)
      if (cells.failures.length > 0) console.log(cells.failures.join('\n'))
      test.info().annotations.push({ type: 'layout failures', description: cells.failures.join('\n') })
      expect(cells.failures, cells.failures.join('\n')).toEqual([])
    })
  }
}
