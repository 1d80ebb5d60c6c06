/**
 * Layout measures of a screen as it is: how many conversation rows the list shows whole, which customer names
 * are given less than they need, and what covers a text box or a Send button.
 */
import type { Page } from '@playwright/test'

/** The rows of the conversation list wholly inside both the list's box and the viewport. */
export async function visibleRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const list = document.querySelector('[data-testid="conversation-list"]')
    if (!list) return 0
    const view = list.getBoundingClientRect()
    const top = Math.max(view.top, 0)
    const bottom = Math.min(view.bottom, innerHeight)
    return Array.from(list.querySelectorAll('[data-testid="conversation-row"]')).filter((row) => {
      const r = row.getBoundingClientRect()
      return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1
    }).length
  })
}

export interface ShortName {
  name: string
  width: number
  /** The width of its first 8 characters, or of the whole name when it is shorter. */
  needs: number
}

/**
 * The customer names on screen (rows and the chat's header) whose box is narrower than their first 8
 * characters, or than the whole name when it is shorter, in their own font.
 */
export async function shortNames(page: Page): Promise<ShortName[]> {
  return page.evaluate(() => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    const found: ShortName[] = []
    const names = document.querySelectorAll<HTMLElement>(
      '[data-testid="conversation-name"], [data-testid="chat-customer-name"]',
    )
    for (const el of Array.from(names)) {
      const box = el.getBoundingClientRect()
      if (box.bottom <= 0 || box.top >= innerHeight || !el.checkVisibility()) continue
      const text = (el.textContent ?? '').trim()
      if (!text) continue
      const first = Array.from(segmenter.segment(text), (s) => s.segment)
        .slice(0, 8)
        .join('')
      const probe = document.createElement('span')
      probe.textContent = first
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;display:inline-block'
      el.append(probe)
      const needs = probe.getBoundingClientRect().width
      probe.remove()
      if (box.width < needs - 0.5)
        found.push({ name: text.slice(0, 40), width: Math.round(box.width), needs: Math.round(needs) })
    }
    return found
  })
}

export interface Covered {
  target: string
  /** What is on top at a point of the target (test id, or tag and classes), or `off screen`. */
  by: string
}

/**
 * For each visible element of `testIds`, what lies on top of it at any of 25 points across its box (inset by 2
 * px), or that a point is off screen. A point showing the element itself, something inside it, or (at a rounded
 * corner) what it stands on is free. With
 * `scroll`, each element is first scrolled into view, as a person scrolls a long form to its end.
 */
export async function coveredTargets(
  page: Page,
  testIds: readonly string[],
  scroll = false,
): Promise<Covered[]> {
  return page.evaluate(async ({ ids, scroll }) => {
    const found: Covered[] = []
    const nameOf = (el: Element) =>
      el.closest('[data-testid]')?.getAttribute('data-testid') ??
      `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 3).join('.')}`
    for (const id of ids) {
      for (const el of Array.from(document.querySelectorAll(`[data-testid="${id}"]`))) {
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
        if (scroll) {
          el.scrollIntoView({ block: 'nearest', behavior: 'instant' })
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
        }
        const r = el.getBoundingClientRect()
        if (r.width < 5 || r.height < 5) continue
        const seen = new Set<string>()
        for (let i = 0; i < 5; i++)
          for (let k = 0; k < 5; k++) {
            const x = r.left + 2 + ((r.width - 4) * i) / 4
            const y = r.top + 2 + ((r.height - 4) * k) / 4
            const off = x < 0 || y < 0 || x >= innerWidth || y >= innerHeight
            const hit = off ? null : document.elementFromPoint(x, y)
            // Its own container showing through a rounded corner covers nothing: it is drawn under it.
            const free = hit && (el === hit || el.contains(hit) || hit.contains(el))
            const by = off || !hit ? 'off screen' : free ? '' : nameOf(hit)
            if (by && !seen.has(by)) {
              seen.add(by)
              found.push({ target: id, by })
            }
          }
      }
    }
    return found
  }, { ids: testIds, scroll })
}
