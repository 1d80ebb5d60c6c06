/**
 * The send goes on without the phone: a job started in the browser with "Keep sending when I close the app",
 * the tab closed mid-send (it says goodbye: the hand-over), or the whole browser killed (it says nothing: its
 * lease lapses), finished by the server. Every eligible recipient exactly once (the sandbox's log is the
 * truth), the pacing's lower bound held across the change of sender, the allowance spent once per delivery;
 * the reopened app shows the job finished, back on this device; and another device of the owner, open on
 * the page all along, follows the server's counts to the end.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { chromiumArgs, testChromiumPath } from '../../scripts/chromium.ts'
import {
  apiGet,
  available,
  bulkTest,
  checkDelivery,
  eligible,
  expect,
  login,
  openWizard,
  pages,
  sentLog,
  waitForSent,
} from './bulk-support.ts'

const SCALE = 0.2
/** A short lease, so a killed browser's job is taken by the server within seconds. */
const LEASE_S = 6
const test = bulkTest({ PACING_SCALE: String(SCALE), JOB_LEASE_SECONDS: String(LEASE_S) })

/**
 * The job of `text` ends finished by the server within `timeout`: every eligible recipient exactly once (the
 * sandbox's log), the pacing's lower bound held across the change of sender, one message spent per delivery.
 * Answers the recipients reached.
 */
async function finishedByServer(
  baseURL: string,
  token: string,
  text: string,
  expected: { inside: string[]; outside: string[] },
  before: number,
  timeout: number,
): Promise<string[]> {
  type Listed = { data: { id: string; message: string; state: string; sender: string }[] }
  await expect
    .poll(
      async () => (await apiGet<Listed>(baseURL, token, '/messages')).data.find((m) => m.message === text),
      { timeout, intervals: [500] },
    )
    .toMatchObject({ state: 'finished', sender: 'server' })
  const sent = (await sentLog(baseURL)).filter((s) => s.text === text)
  const ids = checkDelivery(sent, text, expected)
  expect([...ids].sort()).toEqual([...expected.inside].sort())
  const times = sent.map((s) => Date.parse(s.at))
  const gaps = times.slice(1).map((t, i) => t - times[i]!)
  // Judged only as a lower bound: a busy machine lengthens gaps, nothing may shorten them.
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(800 * SCALE))
  expect(before - (await available(baseURL, token))).toBe(ids.length)
  return ids
}

/** The processes of the browser started on `profile` (this test's own), found by their command line. */
function browserProcesses(profile: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(profile)) pids.push(Number(entry))
    } catch {
      // ended meanwhile
    }
  }
  return pids
}

test('a job whose browser is killed mid-send (no goodbye) is finished by the server once its lease lapses, everyone once', async ({
  baseURL,
}) => {
  test.setTimeout(150_000)
  const profile = mkdtempSync(join(tmpdir(), 'pagecast-killed-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: testChromiumPath,
    args: chromiumArgs,
    baseURL: baseURL!,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    const token = await login(page)
    const expected = await eligible(baseURL!, pages.small)
    const before = await available(baseURL!, token)
    await openWizard(page)
    const text = `Killed mid-send ${Date.now()}`
    await page.getByTestId('bulk-step-2').getByRole('button').first().click()
    await page.getByTestId('bulk-step-3').getByRole('button').first().click()
    await page.getByTestId('bulk-keep-sending').check()
    await page.getByTestId('bulk-text').fill(text)
    await page.getByTestId('bulk-send').click()
    await waitForSent(baseURL!, text, 3)
    // The browser dies at once, every process of it: no pagehide, no hand-over, no last request.
    const pids = browserProcesses(profile)
    expect(pids.length).toBeGreaterThan(0)
    for (const pid of pids) process.kill(pid, 'SIGKILL')
    const killed = Date.now()
    await context.close().catch(() => undefined)

    await finishedByServer(baseURL!, token, text, expected, before, (LEASE_S + 60) * 1000)
    // Within a minute of the lease lapsing.
    expect(Date.now() - killed).toBeLessThan((LEASE_S + 60) * 1000)
  } finally {
    await context.close().catch(() => undefined)
    rmSync(profile, { recursive: true, force: true })
  }
})

test('a job handed over when the tab closes is finished by the server, everyone once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const token = await login(page)
  const expected = await eligible(baseURL!, pages.small)
  expect(expected.inside.length).toBeGreaterThan(6)
  const before = await available(baseURL!, token)
  await openWizard(page)
  const text = `Carried on ${Date.now()}`
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  // A short send: the option starts off, the owner switches it on.
  const keep = page.getByTestId('bulk-keep-sending')
  await expect(keep).not.toBeChecked()
  await keep.check()
  await page.getByTestId('bulk-text').fill(text)
  await page.getByTestId('bulk-send').click()
  await expect(page.getByTestId('bulk-card-sender').first()).toHaveText('on this device', { timeout: 20_000 })
  await waitForSent(baseURL!, text, 3)
  const context = page.context()
  await page.close({ runBeforeUnload: true })

  const ids = await finishedByServer(baseURL!, token, text, expected, before, 90_000)

  // Back in the app: the job comes back from the server, finished, with its counts.
  const again = await context.newPage()
  await again.goto('/')
  const card = again.getByTestId('bulk-card').first()
  await expect(card).toHaveAttribute('data-state', 'finished', { timeout: 30_000 })
  await expect(card.getByTestId('bulk-card-summary')).toHaveText(
    `Successfully sent ${ids.length} messages, 0 rejected`,
  )
})

test('another device of the owner, open on the page all along, follows the server to the end of a handed-over job', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const token = await login(page)
  const expected = await eligible(baseURL!, pages.small)
  const before = await available(baseURL!, token)
  // Device B: the owner's desktop, signed in on its own and open on the page from before the send.
  const other = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })
  const b = await other.newPage()
  await login(b)
  await b.goto(`/${pages.small}`)
  await expect(b.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })

  await openWizard(page)
  const text = `Followed elsewhere ${Date.now()}`
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-keep-sending').check()
  await page.getByTestId('bulk-text').fill(text)
  await page.getByTestId('bulk-send').click()
  await waitForSent(baseURL!, text, 3)
  await page.close({ runBeforeUnload: true })

  const ids = await finishedByServer(baseURL!, token, text, expected, before, 90_000)
  // B never reloaded: its card shows the job the server finished, with the server's counts, within seconds.
  type Listed = { data: { id: string; message: string }[] }
  const id = (await apiGet<Listed>(baseURL!, token, '/messages')).data.find((m) => m.message === text)!.id
  const card = b.locator(`[data-testid="bulk-card"][data-job-id="${id}"]`)
  await expect(card).toHaveAttribute('data-state', 'finished', { timeout: 10_000 })
  await expect(card.getByTestId('bulk-card-summary')).toHaveText(
    `Successfully sent ${ids.length} messages, 0 rejected`,
  )
  await other.close()
})

test('a send scheduled in the wizard shows on the cards with its time, is edited, fits a phone, and is cancelled before it starts', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const token = await login(page)
  await openWizard(page)
  const text = `Scheduled later ${Date.now()}`
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill(text)
  await page.getByTestId('bulk-later').check()
  await expect(page.getByText(/The audience is computed when the send starts/)).toBeVisible()
  // Tomorrow at 09:00 in the browser's zone.
  const at = new Date()
  at.setDate(at.getDate() + 1)
  at.setHours(9, 0, 0, 0)
  const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T09:00`
  await page.getByTestId('bulk-later-at').fill(local)
  await page.getByTestId('bulk-send').click()
  const card = page.getByTestId('bulk-scheduled-card').filter({ hasText: text })
  await expect(card).toBeVisible({ timeout: 20_000 })
  await expect(card).toContainText('9:00')
  const box = (await card.boundingBox())!
  const width = page.viewportSize()!.width
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  type Listed = { data: { message: string; state: string; scheduled_at: string }[] }
  const stored = (await apiGet<Listed>(baseURL!, token, '/messages')).data.find((m) => m.message === text)!
  expect(stored).toMatchObject({ state: 'scheduled', scheduled_at: at.toISOString() })

  // Edited before it starts: a time in the past is refused beside its field, then a new time and text are kept.
  const two = (n: number) => String(n).padStart(2, '0')
  const inputValue = (d: Date) =>
    `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
  await card.getByTestId('bulk-scheduled-edit').click()
  await expect(page).toHaveURL(/[?&]modal=edit-scheduled/)
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByTestId('scheduled-edit-at')).toHaveValue(local)
  await expect(dialog.getByTestId('scheduled-edit-text')).toHaveValue(text)
  const yesterday = new Date(at)
  yesterday.setDate(yesterday.getDate() - 2)
  await dialog.getByTestId('scheduled-edit-at').fill(inputValue(yesterday))
  await dialog.getByTestId('scheduled-edit-save').click()
  await expect(dialog.getByRole('alert')).toHaveText('Choose a date and time in the future.')
  const later = new Date(at)
  later.setHours(10, 30, 0, 0)
  const edited = `${text} (edited)`
  await dialog.getByTestId('scheduled-edit-at').fill(inputValue(later))
  await dialog.getByTestId('scheduled-edit-text').fill(edited)
  await dialog.getByTestId('scheduled-edit-save').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).not.toHaveURL(/modal=/)
  const editedCard = page.getByTestId('bulk-scheduled-card').filter({ hasText: edited })
  await expect(editedCard).toContainText('10:30')
  const changed = (await apiGet<Listed>(baseURL!, token, '/messages')).data.find((m) => m.message === edited)!
  expect(changed).toMatchObject({ state: 'scheduled', scheduled_at: later.toISOString() })

  // On a 360 px phone the card, its text and its buttons stay inside the screen: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByTestId('bulk-panel')).toHaveAttribute('data-layout', 'strip')
  await page.getByTestId('bulk-strip-toggle').click()
  await expect(editedCard).toBeVisible()
  for (const part of [
    editedCard,
    editedCard.getByTestId('bulk-scheduled-edit'),
    editedCard.getByTestId('bulk-scheduled-cancel'),
  ]) {
    const b = (await part.boundingBox())!
    expect(b.x).toBeGreaterThanOrEqual(0)
    expect(b.x + b.width).toBeLessThanOrEqual(360)
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // Cancelling asks once, in words that say what happens; Back (or "Keep it") keeps the send.
  await editedCard.getByTestId('bulk-scheduled-cancel').click()
  const confirm = page.getByTestId('cancel-scheduled-confirm')
  await expect(page.getByRole('dialog')).toContainText('Cancel this scheduled send?')
  await expect(confirm).toContainText('Nobody will receive this message.')
  await page.goBack()
  await expect(confirm).toHaveCount(0)
  await expect(editedCard).toBeVisible()
  await editedCard.getByTestId('bulk-scheduled-cancel').click()
  await confirm.getByRole('button', { name: 'Cancel the send' }).click()
  await expect(editedCard).toHaveCount(0, { timeout: 20_000 })
  const after = (await apiGet<Listed>(baseURL!, token, '/messages')).data.find((m) => m.message === edited)
  expect(after?.state).toBe('cancelled')
})
