/**
 * The inbox of the large page (1,280 conversations) on a slow phone: Chromium at 4x CPU slowdown enters the
 * page with an empty cache, so the background sync reads and stores every conversation while the list is on
 * screen. Printed: the long tasks (over 50 ms) from entry to the sync's end, and those after the first rows
 * were painted (the sync's own), the longest and their blocking time; then, with the sync done, six filter
 * keystrokes at a quick typist's pace (with the long tasks of the filtering that follows each key's frame)
 * and nine openings of a chat, each to the next frame, as medians. Goals: no task over 50 ms after the first
 * rows, a keystroke and a chat opening within a frame budget (16.7 ms). Figures, not a timed test.
 * `BENCH_TRACE=<file>` also saves Chromium's performance trace of the whole run (from the entry to the last
 * chat), for the browser's Performance panel.
 */
import { chromium, type Page } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { inboxDeviceState } from '../e2e/support/inbox-device-state.ts'
import { startStack } from '../e2e/support/stack.ts'
import { benchLogin } from './browser-login.ts'
import { median } from './slow-phone.ts'

const SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 4)
const FRAME_MS = 1000 / 60
const LONG_TASK_MS = 50
const OPENS = 9
const pageId = demoPageIds(20260427).large
const TRACE = process.env.BENCH_TRACE
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'loading',
]

interface LongTask {
  start: number
  duration: number
}

/** From an input event in the filter to the next frame. */
function keystrokeMs(page: Page, text: string): Promise<number> {
  return page.evaluate(async (text) => {
    const input = document.querySelector<HTMLInputElement>('[data-testid="conversation-filter"]')!
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    await new Promise((r) => requestAnimationFrame(r))
    const t0 = performance.now()
    setValue.call(input, text)
    input.dispatchEvent(new Event('input', { bubbles: true }))
    await new Promise((r) => requestAnimationFrame(r))
    return performance.now() - t0
  }, text)
}

/** From a click on a row to the frame after the chat's composer is in the DOM. */
function openChatMs(page: Page, index: number): Promise<number> {
  return page.evaluate(
    (index) =>
      new Promise<number>((resolve) => {
        const row = document.querySelectorAll<HTMLElement>('[data-testid="conversation-row"]')[index]!
        const t0 = performance.now()
        // No named functions in here: the page does not have the bundler's naming helper.
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="chat-view"]')) return
          observer.disconnect()
          requestAnimationFrame(() => resolve(performance.now() - t0))
        })
        observer.observe(document.body, { childList: true, subtree: true })
        row.click()
      }),
    index,
  )
}

/** The long tasks the page observed since it loaded. */
const longTasks = (page: Page): Promise<LongTask[]> =>
  page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks)
const blocking = (tasks: LongTask[]) =>
  tasks.reduce((sum, t) => sum + Math.max(0, t.duration - LONG_TASK_MS), 0)

const stack = await startStack({ STATIC_DIR: process.env.STATIC_DIR ?? 'dist', LOG_LEVEL: 'error' })
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  const context = await browser.newContext({
    baseURL: stack.url,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  })
  await context.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] }
    w.__longTasks = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  const page = await context.newPage()
  await benchLogin(page)
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN })

  let labelCalls = 0
  page.on('request', (req) => {
    const url = req.url()
    if (url.includes('/custom_labels') || (req.method() === 'POST' && /\/v\d+\.\d+\/?(\?|$)/.test(url)))
      labelCalls += 1
  })
  const failures = new Map<string, number>()
  const failed = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1)
  page.on('requestfailed', (req) =>
    failed(
      `${req.failure()?.errorText ?? 'failed'} ${new URL(req.url()).pathname.replace(/\d{6,}/g, ':id')}`,
    ),
  )
  page.on('response', (res) => {
    if (res.status() >= 400)
      failed(`${res.status()} ${new URL(res.url()).pathname.replace(/\d{6,}/g, ':id')}`)
  })
  if (TRACE) await browser.startTracing(page, { path: TRACE, categories: TRACE_CATEGORIES })
  const entered = Date.now()
  await page.goto(`/${pageId}`)
  await page.getByTestId('conversation-row').first().waitFor({ timeout: 60_000 })
  const firstRowsAt = await page.evaluate(() => performance.now())
  const firstRowsMs = Date.now() - entered
  while (!(await inboxDeviceState(page, pageId)).done) {
    if (Date.now() - entered > 300_000) throw new Error('the sync did not finish within 5 minutes')
    await page.waitForTimeout(500)
  }
  const syncMs = Date.now() - entered
  // Then every customer's labels (read in the background once the list is whole), before typing and opening.
  let state = await inboxDeviceState(page, pageId)
  while (state.labelled < Math.max(1, state.synced) && Date.now() - entered < 300_000) {
    await page.waitForTimeout(250)
    state = await inboxDeviceState(page, pageId)
  }
  const labelled = state.labelled
  const labelsMs = Date.now() - entered
  await page.waitForTimeout(1_000)
  const tasks = await longTasks(page)
  const afterRows = tasks.filter((t) => t.start >= firstRowsAt)

  const typingFrom = await page.evaluate(() => performance.now())
  const keys: number[] = []
  // A quick typist's pace (five keys a second): each key finds the list filtered for the one before, as it
  // would be in the hand; back to back, a key's frame would also carry the previous key's filtering.
  for (const text of ['a', 'an', 'ana', 'an', 'a', '']) {
    keys.push(await keystrokeMs(page, text))
    await page.waitForTimeout(200)
  }
  // The list filtered after each key's frame: its tasks, as long tasks.
  const typingTasks = (await longTasks(page)).filter((t) => t.start >= typingFrom)
  // Nine openings of the first six rows: a median of a few is mostly the frame clock's phase.
  const opens: number[] = []
  for (let i = 0; i < OPENS; i++) {
    opens.push(await openChatMs(page, i % 6))
    await page.goBack()
    await page.getByTestId('conversation-row').first().waitFor()
    await page.waitForTimeout(500)
  }

  if (TRACE) await browser.stopTracing()

  const longest = (xs: LongTask[]) => (xs.length ? Math.max(...xs.map((t) => t.duration)) : 0)
  console.log(`inbox of the large page at ${SLOWDOWN}x CPU slowdown, 360 x 740, empty cache`)
  console.log(`  first rows after ${firstRowsMs} ms; sync of every conversation done after ${syncMs} ms`)
  console.log(
    `  labels of ${labelled} customers read after ${labelsMs} ms in ${labelCalls} calls to the network`,
  )
  console.log(
    `  long tasks from entry to the sync's end: ${tasks.length}, longest ${longest(tasks).toFixed(0)} ms, blocking ${blocking(tasks).toFixed(0)} ms`,
  )
  console.log(
    `  long tasks after the first rows (the sync's): ${afterRows.length}, longest ${longest(afterRows).toFixed(0)} ms, blocking ${blocking(afterRows).toFixed(0)} ms (goal: none over ${LONG_TASK_MS} ms)`,
  )
  console.log(
    `  one filter keystroke to the next frame: median ${median(keys).toFixed(1)} ms (goal ${FRAME_MS.toFixed(1)}); ${keys.map((k) => k.toFixed(0)).join(', ')}`,
  )
  console.log(
    `  long tasks while typing (the list filtered after each key's frame): ${typingTasks.length}, longest ${longest(typingTasks).toFixed(0)} ms`,
  )
  console.log(
    `  a chat opened to the next frame: median ${median(opens).toFixed(1)} ms (goal ${FRAME_MS.toFixed(1)}); ${opens.map((k) => k.toFixed(0)).join(', ')}`,
  )
  if (failures.size > 0)
    console.log(`  failed requests: ${[...failures].map(([k, n]) => `${k} x${n}`).join(', ')}`)
  if (TRACE) console.log(`  trace saved to ${TRACE}`)
} finally {
  await browser.close()
  await stack.stop()
}
