/**
 * The browser's own layout-shift entries (PerformanceObserver, buffered from the page's start), each with the
 * elements that moved: a deterministic total, unlike a timing.
 */
import type { Page } from '@playwright/test'

export interface LayoutShift {
  value: number
  /** The moved nodes: their element's test id (or tag) and the start of their text. */
  what: string[]
}

/** Records every shift not caused by input, from the next document the page loads. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: { value: number; what: string[] }[] }
    w.__shifts = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as {
        value: number
        hadRecentInput: boolean
        sources?: { node?: Node | null }[]
      }[]) {
        if (e.hadRecentInput) continue
        const what = (e.sources ?? []).map((s) => {
          const node = s.node
          const el = node instanceof Element ? node : node?.parentElement
          return `${el?.getAttribute('data-testid') ?? el?.tagName ?? '?'}: ${(node?.textContent ?? '').slice(0, 40)}`
        })
        w.__shifts.push({ value: e.value, what })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

/** The shifts recorded so far, after two frames (so a shift caused by the last update is reported). */
export async function layoutShifts(page: Page): Promise<LayoutShift[]> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  return page.evaluate(() => (window as unknown as { __shifts: LayoutShift[] }).__shifts)
}
