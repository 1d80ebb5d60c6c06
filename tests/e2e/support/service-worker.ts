/**
 * Waiting until the service worker controls a page (the first install claims the pages already open). Polled,
 * each look answered at once: a page that never comes under the worker fails with the registration's state
 * (none, installing, waiting, active), not with the test's bare timeout.
 *
 * Chromium now and then leaves an open page unclaimed by a first worker that did activate (seen with two tabs
 * of the app open while it installed): the page would come under it at its next load, as it does for an
 * owner. Such a page is reloaded once, online, and must then be controlled.
 */
import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

const CONTROLLED = 'controlled'
const UNCLAIMED = 'not controlled, the worker active'
/** How long a page may stay unclaimed by an active worker before it is reloaded. */
const CLAIM_WAIT_MS = 10_000

function workerState(page: Page): Promise<string> {
  return page.evaluate(
    async ({ controlled, unclaimed }) => {
      if (navigator.serviceWorker.controller) return controlled
      const r = await navigator.serviceWorker.getRegistration()
      if (!r) return 'not controlled, no registration'
      if (r.active?.state === 'activated' && !r.installing && !r.waiting) return unclaimed
      const states = { installing: r.installing?.state, waiting: r.waiting?.state, active: r.active?.state }
      return `not controlled, registration ${JSON.stringify(states)}`
    },
    { controlled: CONTROLLED, unclaimed: UNCLAIMED },
  )
}

export async function controlledByServiceWorker(page: Page, timeout = 30_000): Promise<void> {
  const until = Date.now() + timeout
  let unclaimedSince: number | undefined
  let reloaded = false
  await expect
    .poll(
      async () => {
        const state = await workerState(page)
        if (state !== UNCLAIMED || reloaded) return state
        unclaimedSince ??= Date.now()
        if (Date.now() - unclaimedSince < CLAIM_WAIT_MS) return state
        reloaded = true
        console.log(`service worker: the page stayed unclaimed ${CLAIM_WAIT_MS} ms, reloaded online`)
        await page.reload()
        return workerState(page)
      },
      { timeout: Math.max(1_000, until - Date.now()), intervals: [100, 250, 500, 1_000] },
    )
    .toBe(CONTROLLED)
}
