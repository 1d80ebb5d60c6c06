/**
 * A returning owner's inbox opened on a device that kept nothing but the session cookie (its saved session,
 * local database and service worker cleared, no file in the browser's cache), on a slow connection (150 ms
 * round trips, 1.6 Mbit/s down) at 4x CPU slowdown, 412 x 823 as Lighthouse's phone: the time from the
 * navigation to the signed-in layout painted, and to the inbox's first conversation. Printed: the median of
 * `BENCH_RUNS` loads (default 5) and each run. Figures, not a timed test.
 */
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { startStack } from '../e2e/support/stack.ts'
import { median, slowPhone, SLOWDOWN } from './slow-phone.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)

const stack = await startStack({})
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  const { page, cdp } = await slowPhone(browser, stack.url, { width: 412, height: 823 })
  const inbox = (await page.locator('a[data-testid="page-card"]').first().getAttribute('href'))!
  // No file from the browser's cache either.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const layout: number[] = []
  const firstRow: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await page.goto('about:blank')
    // Everything the device saved but the cookies.
    await cdp.send('Storage.clearDataForOrigin', {
      origin: stack.url,
      storageTypes: 'indexeddb,local_storage,cache_storage,service_workers',
    })
    const t0 = Date.now()
    await page.goto(inbox, { waitUntil: 'commit' })
    await page.locator('[data-app-layout]').waitFor({ timeout: 60_000 })
    layout.push(Date.now() - t0)
    await page.getByTestId('conversation-row').first().waitFor({ timeout: 60_000 })
    firstRow.push(Date.now() - t0)
  }
  console.log(
    `a returning owner's inbox, nothing saved but the cookie, on a slow connection at ${SLOWDOWN}x CPU slowdown`,
  )
  console.log(`  signed-in layout after ${median(layout)} ms (runs ${layout.join(', ')})`)
  console.log(`  first conversation after ${median(firstRow)} ms (runs ${firstRow.join(', ')})`)
} finally {
  await browser.close()
  await stack.stop()
}
