/**
 * Sessions end for real: logging out revokes the bearer on the server and leaves nothing of the user in the
 * browser, so the next person on a shared device sees nothing of the last one; the account page lists the
 * signed-in devices and signs them out.
 */
import { mkdirSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { apiToken, composeAndSend, openWizard, pages, sentLog, waitForCard } from './bulk-support.ts'
import { expect, test } from './support/fixtures.ts'
import { apiSessionToken, loginAsDemo, signOut } from './support/login.ts'

const SHOTS = 'tests/artifacts/screenshots'

/** Rows per object store of the app's IndexedDB database, read in the page. */
function indexedDbRows(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('pagecast')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const idb = open.result
          const names = Array.from(idb.objectStoreNames)
          const counts: Record<string, number> = {}
          if (names.length === 0) {
            idb.close()
            return resolve(counts)
          }
          const tx = idb.transaction(names, 'readonly')
          for (const name of names) {
            const req = tx.objectStore(name).count()
            req.onsuccess = () => (counts[name] = req.result)
          }
          tx.oncomplete = () => {
            idb.close()
            resolve(counts)
          }
          tx.onerror = () => reject(tx.error)
        }
      }),
  )
}

async function status(baseURL: string, bearer: string): Promise<number> {
  const res = await fetch(`${baseURL}/api/v2/user`, {
    headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' },
  })
  return res.status
}

test('a shared browser: demo logs out mid bulk send, second signs in and sees nothing of demo', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  await loginAsDemo(page)
  // A cached conversation list and a running bulk send (real pacing: it is still sending at logout).
  await page.goto(`/${pages.small}`)
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await openWizard(page)
  await composeAndSend(page, 'Shared device hello')
  await waitForCard(page, 'running', 30_000)
  const before = await indexedDbRows(page)
  expect(before.conversations).toBeGreaterThan(0)
  expect(before.bulkJobs).toBe(1)
  const demoBearer = await apiToken(page)
  expect(await status(baseURL!, demoBearer)).toBe(200)

  await page.getByRole('button', { name: 'Log out' }).click()
  const confirm = page.getByTestId('sign-out-confirm')
  await expect(confirm).toContainText('Bulk sends not finished: 1.')
  await expect(confirm).toContainText('resume them from their card after you sign in again')
  await confirm.getByRole('button', { name: 'Sign out and delete' }).click()
  await expect(page.getByTestId('login-button')).toBeVisible()

  // Nothing is left in the browser, the sender stopped, and demo's bearer no longer works.
  const after = await indexedDbRows(page)
  expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([])
  expect(await page.evaluate(() => localStorage.getItem('pagecast-session-snapshot'))).toBeNull()
  expect((await page.context().cookies()).find((c) => c.name === 'pagecast_session')).toBeUndefined()
  expect(await status(baseURL!, demoBearer)).toBe(401)
  const sentAtLogout = (await sentLog(baseURL!)).filter((s) =>
    s.text?.startsWith('Shared device hello'),
  ).length
  await page.waitForTimeout(3_000)
  expect((await sentLog(baseURL!)).filter((s) => s.text?.startsWith('Shared device hello')).length).toBe(
    sentAtLogout,
  )

  // The next person signs in on the same browser.
  await loginAsDemo(page, { account: 1 })
  await expect(page.getByRole('heading', { name: 'Your pages' })).toBeVisible()
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  await expect(page.getByTestId('page-card')).toHaveCount(1)
  // Give the progress panel and the sender time to show anything they would.
  await page.waitForTimeout(2_000)
  await expect(page.getByTestId('bulk-card')).toHaveCount(0)
  await expect(page.getByTestId('bulk-panel')).toHaveCount(0)
  const second = await indexedDbRows(page)
  expect(second.conversations ?? 0).toBe(0)
  expect(second.bulkJobs ?? 0).toBe(0)
  expect(second.replyOutbox ?? 0).toBe(0)
  // The device now records second as the owner of what it holds.
  expect(second.meta).toBe(1)
  expect(await status(baseURL!, demoBearer)).toBe(401)
  expect(await status(baseURL!, await apiToken(page))).toBe(200)

  // As the dialog said: demo signing in again finds the unfinished send, rebuilt from the server, paused.
  await signOut(page, page.getByRole('button', { name: 'Log out' }))
  await loginAsDemo(page)
  const card = page.getByTestId('bulk-card').first()
  await expect(card).toHaveAttribute('data-state', 'paused', { timeout: 30_000 })
  await expect(card).toContainText('Found on the server')
})

/** Boxes of the elements, each fully inside the viewport's width. */
async function boxesInside(locators: Locator[], width: number) {
  const boxes = []
  for (const l of locators) {
    const box = (await l.boundingBox())!
    expect(box, await l.evaluate((e) => e.outerHTML.slice(0, 80))).toBeTruthy()
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5)
    boxes.push(box)
  }
  return boxes
}

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test.describe('the signed-in devices at 360 x 740', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('lists the devices without overlap, signs one out, then every other one', async ({
    page,
    baseURL,
  }) => {
    await loginAsDemo(page)
    // Other tests of this worker's stack leave demo signed in elsewhere: start from this device alone.
    const cleared = await fetch(`${baseURL}/api/v2/sessions/revoke-others`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await apiToken(page)}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(cleared.status).toBe(200)
    const other = await apiSessionToken(baseURL!, 'demo')
    const third = await apiSessionToken(baseURL!, 'demo')
    await page.goto('/account')
    const section = page.getByTestId('sessions-section')
    await expect(section.getByRole('heading', { name: 'Signed-in devices' })).toBeVisible()
    const rows = section.getByTestId('session-row')
    await expect(rows).toHaveCount(3)
    const here = rows.filter({ hasText: 'This device' })
    await expect(here).toHaveCount(1)
    await expect(here).toContainText('Chrome')

    const parts: Locator[] = [section.getByRole('heading', { name: 'Signed-in devices' })]
    for (let i = 0; i < 3; i++) {
      parts.push(rows.nth(i).locator('p').first(), rows.nth(i).getByRole('button', { name: 'Sign out' }))
    }
    parts.push(section.getByTestId('sign-out-everywhere'))
    const boxes = await boxesInside(parts, 360)
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(overlap(boxes[i]!, boxes[j]!), `${i} and ${j}`).toBe(false)
    const sectionBox = (await section.boundingBox())!
    expect(sectionBox.x).toBeGreaterThanOrEqual(0)
    expect(sectionBox.x + sectionBox.width).toBeLessThanOrEqual(360)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: `${SHOTS}/en-account-sessions-360.png`, fullPage: true })

    // One other device signed out from its row.
    const others = rows.filter({ hasNotText: 'This device' })
    await others.first().getByRole('button', { name: 'Sign out' }).click()
    await expect(rows).toHaveCount(2)
    const codes = [await status(baseURL!, other), await status(baseURL!, third)].sort()
    expect(codes).toEqual([200, 401])

    // Every other device at once; this one stays signed in.
    await section.getByTestId('sign-out-everywhere').click()
    await expect(rows).toHaveCount(1)
    await expect(section.getByText('No other device is signed in.')).toBeVisible()
    expect(await status(baseURL!, other)).toBe(401)
    expect(await status(baseURL!, third)).toBe(401)
    expect(await status(baseURL!, await apiToken(page))).toBe(200)
    await page.screenshot({ path: `${SHOTS}/en-account-sessions-360-alone.png`, fullPage: true })

    // This device's own row signs out through the normal sign-out.
    await signOut(page, rows.first().getByRole('button', { name: 'Sign out' }))
  })
})
