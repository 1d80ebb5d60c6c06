/**
 * The inbox with 10,000 cached conversations for one page, in Chromium: time from route entry to the first
 * rows painted, time to apply one filter keystroke, row elements in the DOM, JS heap used. Prints each figure
 * beside its budget. `STATIC_DIR` points at the built app (default `dist`).
 */
import { chromium, type Page } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { startStack } from '../e2e/support/stack.ts'
import { benchLogin } from './browser-login.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'

const CONVERSATIONS = 10_000
const RUNS = 5
const budgets = { firstRowsMs: 150, keystrokeMs: 16, rowElements: 60, heapMb: 80 }
const pageId = demoPageIds(20260427).large

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Writes the conversations straight into the app's IndexedDB, as earlier visits would have left them. */
async function seed(page: Page, count: number): Promise<void> {
  await page.evaluate(
    async ({ pageId, count }) => {
      const first = ['Ana', 'Sokha', 'Budi', 'Maria', 'Rahim', 'Ayesha', 'Juan', 'Dewi', 'Kim', 'Tanvir']
      const last = ['López', 'Chan', 'Santoso', 'Reyes', 'Uddin', 'Khan', 'Pérez', 'Lestari', 'Sok', 'Ahmed']
      const texts = [
        'Hola, ¿tienen envío?',
        'Is this still available?',
        'Harga berapa?',
        'តើមានទំនិញទេ?',
        'Salamat po!',
        'کیا یہ دستیاب ہے؟',
      ]
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open('pagecast')
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
      const tx = db.transaction('conversations', 'readwrite')
      const store = tx.objectStore('conversations')
      const now = Date.now()
      for (let i = 0; i < count; i++) {
        const id = `t_bench${i}`
        store.put({
          key: `${pageId}:${id}`,
          pageId,
          id,
          updatedAt: now - i * 60_000,
          customerId: `9${String(i).padStart(15, '0')}`,
          customerName: `${first[i % 10]} ${last[Math.floor(i / 10) % 10]} ${i}`,
          snippet: `${texts[i % texts.length]} #${i}`,
          unreadCount: i % 7 === 0 ? 1 : 0,
          canReply: true,
        })
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      db.close()
    },
    { pageId, count },
  )
}

/** From the click on the page's card (client-side route entry) to the frame after the first row exists. */
async function firstRowsMs(page: Page): Promise<number> {
  await page.goto('/')
  await page.locator(`a[href="/${pageId}"]`).first().waitFor({ timeout: 30_000 })
  return page.evaluate(
    (pageId) =>
      new Promise<number>((resolve) => {
        const link = document.querySelector<HTMLAnchorElement>(`a[href="/${pageId}"]`)!
        const t0 = performance.now()
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="conversation-row"]')) return
          observer.disconnect()
          requestAnimationFrame(() => resolve(performance.now() - t0))
        })
        observer.observe(document.body, { childList: true, subtree: true })
        link.click()
      }),
    pageId,
  )
}

/** One keystroke in the filter: from the input event to the filtered rows being in the DOM. */
async function keystrokeMs(page: Page, text: string): Promise<number> {
  return page.evaluate(async (text) => {
    const input = document.querySelector<HTMLInputElement>('[data-testid="conversation-filter"]')!
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    await new Promise((r) => requestAnimationFrame(r))
    const t0 = performance.now()
    setValue.call(input, text)
    input.dispatchEvent(new Event('input', { bubbles: true }))
    await Promise.resolve()
    const t1 = performance.now()
    return t1 - t0
  }, text)
}

const stack = await startStack({ STATIC_DIR: process.env.STATIC_DIR ?? 'dist', LOG_LEVEL: 'error' })
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  const context = await browser.newContext({
    baseURL: stack.url,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
  })
  const page = await context.newPage()
  await benchLogin(page)
  await page.goto(`/${pageId}`)
  await page.getByTestId('conversation-row').first().waitFor({ timeout: 30_000 })
  await seed(page, CONVERSATIONS)

  const entries: number[] = []
  for (let i = 0; i < RUNS; i++) entries.push(await firstRowsMs(page))
  const list = page.getByTestId('conversation-list')
  await page.waitForFunction(
    (n) =>
      (document.querySelector('[data-testid="conversation-list"] > div')?.getBoundingClientRect().height ??
        0) >=
      n * 64,
    CONVERSATIONS,
    { timeout: 30_000 },
  )

  const keys: number[] = []
  for (const text of ['a', 'an', 'ana', 'ana 1', 'sok', 'so', 's', ''])
    keys.push(await keystrokeMs(page, text))
  const filteredCheck = await keystrokeMs(page, 'Budi')
  const matches = await page.getByTestId('conversation-row').count()
  await keystrokeMs(page, '')
  void filteredCheck

  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }))
  await page.waitForTimeout(300)
  const rowElements = await page.getByTestId('conversation-row').count()

  const cdp = await context.newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const heapMb = (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024

  const figures = {
    firstRowsMs: median(entries),
    keystrokeMs: median(keys),
    rowElements,
    heapMb,
  }
  const line = (name: string, value: number, budget: number, unit: string) =>
    `  ${name.padEnd(34)} ${value.toFixed(unit === '' ? 0 : 1).padStart(8)} ${unit.padEnd(3)} budget ${budget} ${unit}  ${value <= budget ? 'ok' : 'OVER'}`
  console.log(
    `inbox with ${CONVERSATIONS} cached conversations (median of ${RUNS} entries, ${keys.length} keystrokes)`,
  )
  console.log(line('first rows painted after entry', figures.firstRowsMs, budgets.firstRowsMs, 'ms'))
  console.log(line('one filter keystroke', figures.keystrokeMs, budgets.keystrokeMs, 'ms'))
  console.log(line('row elements in the DOM', figures.rowElements, budgets.rowElements, ''))
  console.log(line('JS heap used', figures.heapMb, budgets.heapMb, 'MB'))
  console.log(
    `  entries: ${entries.map((x) => x.toFixed(0)).join(', ')} ms; keystrokes: ${keys.map((x) => x.toFixed(1)).join(', ')} ms; rows matching "Budi": ${matches}`,
  )
} finally {
  await browser.close()
  await stack.stop()
}
