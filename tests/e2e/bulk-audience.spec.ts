/**
 * The wizard's audience whole through a network cut, at 360 x 740 in English and in Bengali and at 740 x 360
 * in Urdu: loading from the
 * network (the large page, before the inbox's sync of it is whole, every Graph answer slowed), the network
 * goes away for a moment; the wizard says the loading stopped before the last conversation, with how many it
 * has, instead of counting what it has as the page's whole audience; "Go on loading" goes on from there to
 * exactly the page's customers the Graph says can be replied to, none twice. Every control of the step is at
 * least 44 x 44 and no text is cut (screenshots in tests/artifacts/bulk-audience/).
 */
import type { Page } from '@playwright/test'
import { bulkTest, eligible, expect, login, pages, setFaults } from './bulk-support.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

const test = bulkTest({ PACING_SCALE: '0.02' }, 'bulk-audience')

/** A phone held upright in English and in Bengali, and sideways in Urdu (right to left). */
const CASES = [
  { locale: 'en-US', viewport: { width: 360, height: 740 } },
  { locale: 'bn-BD', viewport: { width: 360, height: 740 } },
  { locale: 'ur-PK', viewport: { width: 740, height: 360 } },
] as const

const SHOTS = 'tests/artifacts/bulk-audience'

/** The number a text shows, in Latin or Bengali digits, with its grouping marks left out. */
function count(text: string | null): number {
  const latin = (text ?? '').replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
  return Number(latin.replace(/\D/g, '') || 0)
}

async function checkLayout(page: Page, screen: string) {
  await page.screenshot({ path: `${SHOTS}/${screen}.png` })
  expect(await smallTargets(page), `${screen}: small targets`).toEqual([])
  expect(await misfits(page), `${screen}: text that does not fit`).toEqual([])
}

for (const { locale, viewport } of CASES) {
  test.describe(locale, () => {
    test.use({ locale, viewport })
    test(`the audience goes on after a network cut to the whole page (${locale})`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(120_000)
      const truth = await eligible(baseURL!, pages.large)
      const whole = truth.inside.length + truth.outside.length
      await login(page)
      // Every Graph answer takes a while: the wizard's loading is still under way when the network goes.
      await setFaults(baseURL!, { latency_ms: 250 })
      await page.goto(`/${pages.large}?bulk=1`)
      await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
      const loaded = page.getByTestId('bulk-loaded')
      // Some pages in, well before the last one.
      await expect.poll(async () => count(await loaded.textContent()), { timeout: 30_000 }).toBeGreaterThan(0)
      await setFaults(baseURL!, { offline: true })
      const stopped = page.getByTestId('bulk-loading-failed')
      await expect(stopped).toBeVisible({ timeout: 20_000 })
      await setFaults(baseURL!, { offline: false, latency_ms: 0 })
      const so = count(await loaded.textContent())
      expect(so).toBeGreaterThan(0)
      expect(so).toBeLessThan(whole)
      await checkLayout(page, `stopped-${locale}`)
      await stopped.getByRole('button').click()
      await expect(stopped).toBeHidden()
      await expect.poll(async () => count(await loaded.textContent()), { timeout: 60_000 }).toBe(whole)
      await checkLayout(page, `whole-${locale}`)
    })
  })
}
