/**
 * A returning owner's start on a slow phone: the time from a reload of home to its first page card, and to the
 * sign-in's check answered (the page tokens in), on a slow connection (150 ms round trips, 1.6 Mbit/s
 * down) at 4x CPU slowdown, with the saved session and local database of an earlier visit kept. The app's
 * files come from the browser's cache, as on a phone that opened the app before. Printed: the median of
 * `BENCH_RUNS` reloads (default 5) and each run. Figures, not a timed test.
 */
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { startStack } from '../e2e/support/stack.ts'
import { median, slowPhone, SLOWDOWN } from './slow-phone.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)

const stack = await startStack({})
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  const { page } = await slowPhone(browser, stack.url, { width: 360, height: 740 })
  const card = page.getByTestId('page-card').first()
  const checked = page.locator('[data-app-layout]:not([data-restoring])')
  const firstCard: number[] = []
  const tokens: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const t0 = Date.now()
    await page.reload({ waitUntil: 'commit' })
    await card.waitFor({ timeout: 60_000 })
    firstCard.push(Date.now() - t0)
    // The layout drawn from the saved session says so until the sign-in's check has answered.
    await checked.waitFor({ timeout: 60_000 })
    tokens.push(Date.now() - t0)
    await page.waitForTimeout(2_000)
  }
  console.log(`a returning owner's home on a slow connection at ${SLOWDOWN}x CPU slowdown, 360 x 740`)
  console.log(`  first page card after ${median(firstCard)} ms (runs ${firstCard.join(', ')})`)
  console.log(`  sign-in checked (the page tokens in) after ${median(tokens)} ms (runs ${tokens.join(', ')})`)
} finally {
  await browser.close()
  await stack.stop()
}
