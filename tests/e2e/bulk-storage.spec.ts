/**
 * A bulk job outlives its browser: a closed and reopened profile picks it up from IndexedDB, and a wiped
 * IndexedDB is rebuilt from the server's record. Pacing is scaled to 0.2 so jobs last long enough.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { chromiumArgs, testChromiumPath } from '../../scripts/chromium.ts'
import { bulkTest, expect, login, startSend, verifyJob, waitForCard, waitForSent } from './bulk-support.ts'

// A short lease: the wiped profile's own lease, never renewed again, lapses within seconds.
const test = bulkTest({ PACING_SCALE: '0.2', JOB_LEASE_SECONDS: '6' })

test('a browser closed mid-job and reopened with its profile finishes the job', async ({ baseURL }) => {
  test.setTimeout(150_000)
  const dir = mkdtempSync(join(tmpdir(), 'pagecast-profile-'))
  const launch = () =>
    chromium.launchPersistentContext(dir, {
      executablePath: testChromiumPath,
      args: chromiumArgs,
      baseURL: baseURL!,
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
    })
  try {
    let context = await launch()
    let page = context.pages()[0] ?? (await context.newPage())
    await login(page)
    const check = await startSend(page, baseURL!, 'Across restarts')
    await waitForSent(baseURL!, 'Across restarts', 5)
    await context.close()
    const atClose = (await (await fetch(`${baseURL}/sandbox/sent`)).json()) as { data: unknown[] }
    context = await launch()
    page = context.pages()[0] ?? (await context.newPage())
    await page.goto('/')
    await waitForCard(page, 'finished', 90_000)
    // The job really was cut in the middle.
    expect(atClose.data.length).toBeLessThan(check.expected.inside.length)
    await verifyJob(page, check)
    await context.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('with the storage wiped mid-job, the job is rebuilt from the server and finished on resume', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000)
  await login(page)
  const check = await startSend(page, baseURL!, 'From the server')
  await waitForSent(baseURL!, 'From the server', 6)
  await page.close()
  const fresh = await context.newPage()
  // A same-origin page that is not the app, so nothing holds the database while it is deleted.
  await fresh.goto('/favicon.svg')
  await fresh.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.deleteDatabase('pagecast')
        req.onsuccess = () => resolve()
        req.onerror = () => reject(req.error)
      }),
  )
  await fresh.goto('/')
  const card = await waitForCard(fresh, 'paused', 30_000)
  await expect(card.getByTestId('bulk-card-state')).toHaveText('Found on the server: resume to finish')
  await card.getByRole('button', { name: 'Resume' }).click()
  await waitForCard(fresh, 'finished', 90_000)
  await verifyJob(fresh, check)
})
