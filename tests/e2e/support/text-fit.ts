/**
 * The text-fit check of one screen as it is: no line cut by a box that hides its overflow, no text spilling out
 * of its button, no two line boxes on top of each other. Text cut on purpose carries `data-truncate`.
 */
import type { Page } from '@playwright/test'

export interface Misfit {
  kind: 'clipped' | 'spills' | 'overlap'
  text: string
  other?: string
  by: number
}

/** The texts on top at their place in the viewport and what does not fit among them. */
export async function misfits(page: Page): Promise<Misfit[]> {
  return page.evaluate(() => {
    const found: Misfit[] = []
    const tolerance = 1.5
    const short = (t: string) => t.trim().replace(/\s+/g, ' ').slice(0, 60)
    interface Line {
      node: Text
      el: Element
      rect: DOMRect
    }
    const lines: Line[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const seenClip = new Set<Element>()
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      if (!node.data.trim()) continue
      const el = node.parentElement
      if (!el || el.closest('.sr-only, [aria-hidden="true"], script, style, noscript, option')) continue
      const style = getComputedStyle(el)
      if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width < 1 || rect.height < 1) continue
        const cx = Math.min(Math.max(rect.left + rect.width / 2, 0), innerWidth - 1)
        const cy = Math.min(Math.max(rect.top + rect.height / 2, 0), innerHeight - 1)
        // Only lines wholly on screen from top to bottom: one half scrolled away is cut by its scroller, not
        // by the layout. A line running off the side of the screen is a misfit and stays.
        if (rect.top < 0 || rect.bottom > innerHeight || rect.right <= 0 || rect.left >= innerWidth) continue
        // Likewise a line partly scrolled out of the box that scrolls it (the page above the send strip).
        let scroller: Element | null = el.parentElement
        while (
          scroller &&
          scroller !== document.body &&
          !/auto|scroll/.test(getComputedStyle(scroller).overflowY)
        )
          scroller = scroller.parentElement
        if (scroller && scroller !== document.body) {
          const view = scroller.getBoundingClientRect()
          if (rect.top < view.top - 1 || rect.bottom > view.bottom + 1) continue
        }
        // And a line partly scrolled out of a row that scrolls sideways (the plans' carousel, the inbox's chips):
        // the next card peeks there on purpose, a swipe away.
        let row: Element | null = el.parentElement
        while (row && row !== document.body && !/auto|scroll/.test(getComputedStyle(row).overflowX))
          row = row.parentElement
        if (row && row !== document.body) {
          const view = row.getBoundingClientRect()
          if (rect.left < view.left - 1 || rect.right > view.right + 1) continue
        }
        // Only text on top at its own place: what a modal or the strip covers is not on screen.
        const top = document.elementFromPoint(cx, cy)
        if (!top || !(top === el || el.contains(top) || top.contains(el))) continue
        // Text cut on purpose is seen only as far as its box shows it.
        const cut = el.closest('[data-truncate]')?.getBoundingClientRect()
        const shown = cut
          ? new DOMRect(
              Math.max(rect.left, cut.left),
              rect.top,
              Math.max(0, Math.min(rect.right, cut.right) - Math.max(rect.left, cut.left)),
              rect.height,
            )
          : rect
        lines.push({ node, el, rect: shown })
      }
    }
    for (const { el, rect, node } of lines) {
      if (el.closest('[data-truncate]')) continue
      // Cut by a box that hides its overflow.
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a)
        const hidesX = s.overflowX === 'hidden' || s.overflowX === 'clip'
        const hidesY = s.overflowY === 'hidden' || s.overflowY === 'clip'
        if (!hidesX && !hidesY) continue
        const box = a.getBoundingClientRect()
        const by = Math.max(
          hidesX ? Math.max(box.left - rect.left, rect.right - box.right) : 0,
          hidesY ? Math.max(box.top - rect.top, rect.bottom - box.bottom) : 0,
        )
        if (by > tolerance && !seenClip.has(el)) {
          seenClip.add(el)
          found.push({
            kind: 'clipped',
            text: short(node.data),
            by: Math.round(by),
            other: `${a.tagName.toLowerCase()}.${String(a.className).split(' ').slice(0, 4).join('.')}`,
          })
        }
      }
      // Out of its own control.
      const control = el.closest('button, a, [role="button"], [role="tab"]')
      if (control) {
        const box = control.getBoundingClientRect()
        const by = Math.max(
          box.top - rect.top,
          rect.bottom - box.bottom,
          box.left - rect.left,
          rect.right - box.right,
        )
        if (by > tolerance && !seenClip.has(el)) {
          seenClip.add(el)
          found.push({ kind: 'spills', text: short(node.data), by: Math.round(by) })
        }
      }
    }
    // Lines closer than the letters need. A fallback font's glyphs (Nastaliq beside a Latin first font) are
    // not in a text's client rects, so the line pitch is compared with the height the text takes where the
    // line height is the fonts' own (`normal`, which counts every font a line uses).
    const natural = new Map<Element, number>()
    const naturalOf = (el: Element, text: string) => {
      let h = natural.get(el)
      if (h === undefined) {
        const probe = document.createElement('span')
        probe.textContent = text.trim().slice(0, 40)
        probe.style.cssText =
          'line-height:normal;display:inline-block;white-space:nowrap;position:absolute;visibility:hidden'
        el.append(probe)
        h = probe.getBoundingClientRect().height
        probe.remove()
        natural.set(el, h)
      }
      return h
    }
    const tops = new Map<Element, Set<number>>()
    for (const { el, rect } of lines) {
      const set = tops.get(el) ?? new Set<number>()
      set.add(Math.round(rect.top))
      tops.set(el, set)
    }
    const reported = new Set<Element>()
    for (const { el, node } of lines) {
      if (reported.has(el)) continue
      const lh = getComputedStyle(el).lineHeight
      if (lh === 'normal') continue
      const need = naturalOf(el, node.data)
      const pitch = parseFloat(lh)
      const lineCount = tops.get(el)?.size ?? 1
      // Latin headings set tighter than the font's own height are fine; Nastaliq at a Latin pitch is not.
      if (lineCount > 1 && pitch < need * 0.85) {
        reported.add(el)
        found.push({
          kind: 'overlap',
          text: short(node.data),
          other: '(its next line)',
          by: Math.round(need - pitch),
        })
        continue
      }
      // A control, or a box that cuts, must be as tall as its letters.
      if (el.closest('[data-truncate]')) continue
      let holder: Element | null = el.closest('button, a, [role="button"]')
      for (let a: Element | null = el; !holder && a && a !== document.body; a = a.parentElement) {
        const oy = getComputedStyle(a).overflowY
        if (oy === 'hidden' || oy === 'clip') holder = a
      }
      if (holder && holder.getBoundingClientRect().height < need * 0.85) {
        reported.add(el)
        found.push({
          kind: 'clipped',
          text: short(node.data),
          by: Math.round(need - holder.getBoundingClientRect().height),
        })
      }
    }
    // Line boxes on top of each other.
    for (let i = 0; i < lines.length; i++) {
      for (let k = i + 1; k < lines.length; k++) {
        const a = lines[i]!.rect
        const b = lines[k]!.rect
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left)
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
        if (x <= tolerance || y <= tolerance) continue
        // Lines of one text are measured above; here, two texts on top of each other.
        if (lines[i]!.el === lines[k]!.el) continue
        if (x <= 3 || y <= 3) continue
        found.push({
          kind: 'overlap',
          text: short(lines[i]!.node.data),
          other: short(lines[k]!.node.data),
          by: Math.round(Math.min(x, y)),
        })
      }
    }
    return found
  })
}
