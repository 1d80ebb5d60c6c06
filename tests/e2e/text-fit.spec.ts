/**
 * Every text of the phone journey's screens fits, in all seven languages, at 360 x 740: no line cut by a box
 * that hides its overflow, no text spilling out of its button, and no two line boxes on top of each other
 * (Nastaliq, Khmer and Bengali need taller lines than Latin). The language is chosen in the app while the
 * browser speaks English, so the app's choice, not the browser's, must drive every format.
 * Text cut on purpose (a snippet, a name in a row) carries `data-truncate="<why>"` and is left out of the
 * clipping check. Screenshots: tests/artifacts/text-fit/<lang>-<screen>.png.
 */
import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'
import { settled } from './support/settled.ts'
import { misfits } from './support/text-fit.ts'

const DIR = 'tests/artifacts/text-fit'
const LANGUAGES = ['en', 'es', 'km', 'id', 'fil', 'ur', 'bn'] as const

test.use({ locale: 'en-US', viewport: { width: 360, height: 740 } })

async function check(page: Page, lang: string, screen: string, failures: string[]) {
  // Fonts and layout settle before the measure.
  await page.evaluate(() => document.fonts.ready)
  // The screen as it opens: a document scrolled by a focus would cut its top by the layout's own clip.
  const scrolled = await page.evaluate(() => {
    const y = window.scrollY
    window.scrollTo(0, 0)
    return y
  })
  if (scrolled) console.log(`${lang} ${screen}: the document was scrolled by ${scrolled}px`)
  await settled(page)
  await page.screenshot({ path: `${DIR}/${lang}-${screen}.png` })
  for (const m of await misfits(page))
    failures.push(`${lang} ${screen}: ${m.kind} by ${m.by}px «${m.text}»${m.other ? ` / «${m.other}»` : ''}`)
}

for (const lang of LANGUAGES) {
  test(`every text fits the phone in ${lang}`, async ({ page }) => {
    test.setTimeout(120_000)
    mkdirSync(DIR, { recursive: true })
    await page.addInitScript((code) => localStorage.setItem('pagecast-locale', code), lang)
    const failures: string[] = []

    await page.goto('/')
    await expect(page.getByTestId('login-button')).toBeVisible()
    await check(page, lang, '01-login', failures)

    // Signed in from the login screen just measured.
    await loginAsDemo(page, { path: null })
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '02-home', failures)

    await page.locator(`a[data-testid="page-card"][href="/${pages.large}"]`).click()
    await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '03-inbox', failures)
    // Relative times are said in the chosen language, never in the browser's English or as "-30 s".
    const time = (await page.getByTestId('conversation-row').first().locator('time').textContent()) ?? ''
    if (lang !== 'en')
      expect(time, 'the row time is in the chosen language').not.toMatch(/\bago\b|^-|\bnow\b/)

    await page.getByTestId('conversation-row').first().click()
    await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '04-chat', failures)

    await page.goto(`/${pages.small}?bulk=1`)
    await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('bulk-group-none')).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '05-bulk-audience', failures)
    const step2 = page.getByTestId('bulk-step-2').getByRole('button').first()
    await expect(step2).toBeEnabled({ timeout: 20_000 })
    await step2.click()
    await check(page, lang, '06-bulk-content', failures)

    await page.getByTestId('bulk-step-3').getByRole('button').first().click()
    await page.getByTestId('bulk-later').check()
    await check(page, lang, '07-bulk-compose', failures)

    await page.goto('/?modal=plans')
    await expect(page.getByTestId('modal')).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '08-plans', failures)

    // Escape closes the plans and leaves the owner home, where the account menu opens.
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('modal')).toHaveCount(0)
    await expect(page).toHaveURL(/\/$/)
    await page.getByTestId('user-avatar').first().click()
    await expect(page.getByTestId('account-menu')).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '09-account-menu', failures)

    // The marketing sheet names the regions where marketing messages work, in the chosen language.
    await page.goto(`/${pages.large}?modal=marketing`)
    const sheet = page.getByTestId('modal')
    await expect(sheet.getByTestId('marketing-explain')).toBeVisible({ timeout: 20_000 })
    await check(page, lang, '10-marketing', failures)
    if (lang === 'km')
      expect(await sheet.getByTestId('marketing-unreached').textContent()).not.toMatch(/[A-Za-z]{3}/)

    expect(failures, failures.join('\n')).toEqual([])
  })
}
