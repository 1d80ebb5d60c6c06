/**
 * One record seen alike on every device, and a report that stays: a second browser signed in as the same owner
 * shows the job the server sends with its live counts and the allowance badge following it; a finished send's
 * report (sent, rejected by reason, delivered, read, replied within 24 h, the recipients and a CSV) stays in
 * the page's send history after its card is dismissed, and fits a 360 x 740 phone, in Urdu too.
 */
import type { Browser, Locator, Page, Request } from '@playwright/test'
import {
  available,
  bulkTest,
  composeAndSend,
  createdJob,
  eligible,
  expect,
  login,
  openWizard,
  pages,
  sentLog,
  waitForSent,
} from './bulk-support.ts'
import { customerWrites } from './live-support.ts'
import { smallTargets } from './support/targets.ts'

// The real pacing: the second device watches the server send, its counts and badge moving a send at a time.
// It follows its cards by job id: it shares the real pacing's stack with the other specs of that setting.
const test = bulkTest({ PACING_SCALE: '1' }, '')

const summaryCount = async (card: Locator) =>
  Number(/(\d+)\//.exec((await card.getByTestId('bulk-card-summary').textContent()) ?? '')?.[1] ?? -1)
const badgeCount = async (badge: Locator) => Number((await badge.textContent())?.replaceAll(/\D/g, ''))

/** Device B: the same owner signed in on another browser, on the small page, its allowance badge shown. */
async function secondDevice(browser: Browser, url: string, onRequest?: (r: Request) => void) {
  const other = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } })
  const b = await other.newPage()
  await login(b)
  if (onRequest) b.on('request', onRequest)
  await b.goto(`/${pages.small}`)
  const badge = b.getByTestId('message-badge')
  await expect(badge).toBeVisible({ timeout: 20_000 })
  return { other, b, badge }
}

/** The job's card on device B finished with every send counted, and B's badge at the server's allowance. */
async function finishedOnB(card: Locator, badge: Locator, url: string, token: string, text: string) {
  await expect(card).toHaveAttribute('data-state', 'finished', { timeout: 120_000 })
  const sent = (await sentLog(url)).filter((s) => s.text === text).length
  await expect(card.getByTestId('bulk-card-summary')).toHaveText(
    `Successfully sent ${sent} messages, 0 rejected`,
  )
  await expect
    .poll(async () => (await badge.textContent())?.trim(), { timeout: 20_000 })
    .toBe((await available(url, token)).toLocaleString('en'))
}

test('a second device shows the job the server sends, its live counts and the allowance badge', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const url = baseURL!
  const token = await login(page)
  const expected = await eligible(url, pages.small)
  expect(expected.inside.length).toBeGreaterThan(5)

  // Device B signs in as the same owner and opens the page before anything is sent.
  const { other, b, badge } = await secondDevice(browser, url)

  // Device A starts the send with "Keep sending when I close the app" and closes: the server sends it.
  await openWizard(page)
  const text = `Seen on every device ${Date.now()}`
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-keep-sending').check()
  await page.getByTestId('bulk-text').fill(text)
  const created = createdJob(page)
  await page.getByTestId('bulk-send').click()
  const id = await created
  await waitForSent(url, text, 2)
  await page.close({ runBeforeUnload: true })

  const card = b.locator(`[data-testid="bulk-card"][data-remote="server"][data-job-id="${id}"]`)
  await expect(card).toHaveAttribute('data-state', 'on_server', { timeout: 30_000 })
  await expect(card.getByTestId('bulk-card-sender')).toHaveText('Sending on the server')
  // The page's name, from the server's record.
  await expect(card.locator('p').first()).not.toBeEmpty()
  const first = await summaryCount(card)
  // The counts move without a reload, and the badge follows the allowance the server spends.
  await expect.poll(() => summaryCount(card), { timeout: 30_000 }).toBeGreaterThan(first)
  // Both read in each look: the server keeps spending while the badge is polled, so a figure read once
  // before could never be matched again.
  await expect
    .poll(
      async () => {
        const [shown, left] = await Promise.all([badge.textContent(), available(url, token)])
        return shown?.trim() === left.toLocaleString('en') ? 'same' : `${shown?.trim()} shown, ${left} left`
      },
      { timeout: 20_000 },
    )
    .toBe('same')
  await finishedOnB(card, badge, url, token, text)
  await other.close()
})

test('a second device follows live the job another device sends, without polling the job list', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const url = baseURL!
  const token = await login(page)
  const expected = await eligible(url, pages.small)
  expect(expected.inside.length).toBeGreaterThan(5)

  // Every read of the cards' job list device B makes.
  let listReads = 0
  const { other, b, badge } = await secondDevice(browser, url, (r) => {
    const u = new URL(r.url())
    if (u.pathname === '/api/v2/messages' && u.searchParams.get('state') === 'all') listReads++
  })
  const before = await badgeCount(badge)

  // Device A sends on the device itself (not handed to the server) and stays open.
  await openWizard(page)
  const text = `Followed from afar ${Date.now()}`
  const created = createdJob(page)
  await composeAndSend(page, text)
  const id = await created

  const card = b.locator(`[data-testid="bulk-card"][data-remote="device"][data-job-id="${id}"]`)
  await expect(card).toHaveAttribute('data-state', 'running', { timeout: 30_000 })
  const first = await summaryCount(card)
  const since = listReads
  const started = Date.now()
  // The counts move without a reload and without B reading the list again, and the badge goes down with them.
  await expect.poll(() => summaryCount(card), { timeout: 30_000 }).toBeGreaterThan(first)
  await expect.poll(() => badgeCount(badge), { timeout: 20_000 }).toBeLessThan(before)
  await finishedOnB(card, badge, url, token, text)
  // Long enough that a list polled every few seconds would have been read meanwhile.
  expect(Date.now() - started).toBeGreaterThan(6_000)
  expect(listReads - since).toBe(0)
  await other.close()
})

/** A send of three recipients recorded through the API: two sent (one replies), one rejected; finished. */
async function finishedSend(url: string, token: string, people: string[]): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    expect(res.status, `${method} ${path}`).toBeLessThan(300)
    return res.json() as Promise<{ id?: string }>
  }
  const { id } = await call('POST', '/messages', {
    page_id: pages.small,
    message_type_id: 3,
    message: `Report kept ${Date.now()}`,
    label: '[]',
    total_messages: people.length,
    branded_messages_amount: 0,
  })
  await call('PUT', `/messages/${id}/recipients`, {
    recipients: people.map((p, i) => ({
      recipient_id: p,
      name: i === 0 ? '=SUM(A1)' : `Customer ${i}`,
      conversation_id: `t_${p}`,
    })),
  })
  await call('POST', `/messages/${id}/touch`, { _method: 'PUT', status: 'OK', recipient_id: people[0] })
  await call('POST', `/messages/${id}/touch`, { _method: 'PUT', status: 'OK', recipient_id: people[1] })
  await call('POST', `/messages/${id}/touch`, {
    _method: 'PUT',
    status: 'NG',
    recipient_id: people[2],
    error_data: { error_message: '(#551) This person isn’t available right now.', recipent_id: people[2] },
  })
  await call('POST', `/messages/${id}/state`, { state: 'finished' })
  return id!
}

async function insideScreen(page: Page, boxes: Locator[]) {
  const width = page.viewportSize()!.width
  for (const l of boxes) {
    const b = (await l.boundingBox())!
    expect(b.x).toBeGreaterThanOrEqual(-0.5)
    expect(b.x + b.width).toBeLessThanOrEqual(width + 0.5)
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

/** No text in the dialog is cut by its box (except what is cut on purpose, `data-truncate`). */
async function noClippedText(page: Page) {
  const clipped = await page.getByRole('dialog').evaluate((root) =>
    Array.from(root.querySelectorAll('p, span, dt, dd, h2, h3, button, bdi'))
      .filter((el) => !el.closest('[data-truncate]'))
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
      .map((el) => el.textContent),
  )
  expect(clipped).toEqual([])
}

test("a finished send's report stays in the page's send history after its card is dismissed, on a phone, in Urdu too", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const url = baseURL!
  await page.setViewportSize({ width: 360, height: 740 })
  const token = await login(page)
  const { inside } = await eligible(url, pages.small)
  const people = inside.slice(0, 3)
  // Entering the page registers it for this owner; the API refuses a page's sends before that.
  const registered = page.waitForResponse(
    (r) => r.url().endsWith('/api/v2/page') && r.request().method() === 'POST' && r.ok(),
  )
  await page.goto(`/${pages.small}`)
  await registered
  const id = await finishedSend(url, token, people)
  // The first recipient writes back within 24 h: a reply.
  await customerWrites(url, pages.small, people[0]!, 'Thanks, see you soon')

  // The card (from the server's record) is dismissed on this phone (`DELETE /api/v2/messages/:id`).
  await page.goto(`/${pages.small}`)
  await page.getByTestId('bulk-strip-toggle').click()
  const card = page.locator(`[data-testid="bulk-card"][data-job-id="${id}"]`)
  await expect(card).toHaveAttribute('data-state', 'finished', { timeout: 20_000 })
  await card.getByTestId('bulk-card-close').click()
  await expect(card).toHaveCount(0)

  // The history opens from the bulk area (the wizard's header) and keeps the dismissed send with its report.
  await openWizard(page)
  await page.getByTestId('bulk-wizard').getByTestId('send-history-open').click()
  await expect(page).toHaveURL(/[?&]modal=send-history/)
  const entry = page.locator(`[data-testid="send-history-entry"][data-job-id="${id}"]`)
  await expect(entry).toContainText('Finished · 2 sent, 1 rejected')
  await insideScreen(page, [entry])
  await entry.click()
  const report = page.getByTestId('send-report')
  const figure = (key: string) => report.locator(`[data-figure="${key}"] dd`)
  await expect(figure('sent')).toHaveText('2')
  await expect(figure('rejected')).toHaveText('1')
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'All sends' }).click()
        await entry.click()
        return figure('replied').textContent()
      },
      { timeout: 20_000 },
    )
    .toBe('1')
  await expect(report.getByTestId('send-report-reasons')).toContainText(
    '(#551) This person isn’t available right now.',
  )
  await expect(report.getByTestId('send-report-recipient')).toHaveCount(3)

  // The CSV: every field quoted, the formula-like name neutralised.
  const download = page.waitForEvent('download')
  await report.getByTestId('send-report-csv').click()
  const file = await download
  expect(file.suggestedFilename()).toBe(`send-${id}.csv`)
  const csv = await (await file.createReadStream()).toArray()
  const text = Buffer.concat(csv as Buffer[]).toString('utf8')
  expect(text).toContain(`"${people[0]}","'=SUM(A1)","sent"`)

  // At 360 x 740: inside the screen, every control a thumb's size, no text clipped.
  await insideScreen(page, [
    report,
    report.getByTestId('send-report-csv'),
    report.getByTestId('send-report-figures'),
  ])
  expect(await smallTargets(page)).toEqual([])
  await noClippedText(page)
  await page.screenshot({ path: 'tests/artifacts/send-views/report-en.png' })

  // In Urdu the dialog reads right to left: the figures start at the right edge.
  await page.evaluate(() => localStorage.setItem('pagecast-locale', 'ur'))
  await page.reload()
  await expect(page.getByTestId('send-history')).toBeVisible({ timeout: 20_000 })
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await entry.click()
  await expect(figure('sent')).toHaveText('2')
  const cells = report.locator('[data-figure]')
  const [a, b2] = [(await cells.nth(0).boundingBox())!, (await cells.nth(1).boundingBox())!]
  expect(a.x).toBeGreaterThan(b2.x)
  await insideScreen(page, [report, report.getByTestId('send-report-csv')])
  expect(await smallTargets(page)).toEqual([])
  await noClippedText(page)
  await page.screenshot({ path: 'tests/artifacts/send-views/report-ur.png' })

  // A recipient's name opens the chat with them, the report closed.
  await report.getByTestId('send-report-recipient-chat').first().click()
  await expect(page.getByTestId('modal')).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`[?&]chat=`))
  await expect(page.getByTestId('chat-view')).toBeVisible({ timeout: 20_000 })
})
