/**
 * The phone of the start benchmarks: the demo owner signed in, then a slow connection (150 ms round trips,
 * 1.6 Mbit/s down, 750 kbit/s up) and the CPU slowed `SLOWDOWN` times. Service workers are blocked: each load
 * measures the app's own start, not a cached copy's.
 */
import type { Browser, CDPSession, Page } from '@playwright/test'
import { benchLogin } from './browser-login.ts'

export const SLOWDOWN = 4

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function slowPhone(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({ baseURL, viewport, serviceWorkers: 'block' })
  const page = await context.newPage()
  await benchLogin(page)
  await page.locator('a[data-testid="page-card"]').first().waitFor({ timeout: 60_000 })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN })
  return { page, cdp }
}
