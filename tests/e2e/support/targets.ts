/**
 * Tap targets: every visible control of the screen as it is, measured in CSS px. A control passes when its own
 * box is at least 44 x 44, or when one of its labels is (a label row that wraps or names a checkbox is the
 * target a thumb hits). Controls behind an open dialog (inert) and visually hidden ones (1 px, clipped) are
 * not on screen; links inside a sentence are text, not controls.
 */
import type { Page } from '@playwright/test'

export const MIN_TARGET = 44

const CONTROLS = [
  'button',
  'a[href]',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  '[role="button"]',
  '[role="link"]',
  '[role="radio"]',
  '[role="checkbox"]',
  '[role="switch"]',
  '[role="tab"]',
  '[role="menuitem"]',
  '[role="option"]',
].join(',')

export interface SmallTarget {
  /** The control's accessible-ish name: test id, aria-label, text or tag. */
  name: string
  width: number
  height: number
}

/** The visible controls of the page smaller than 44 x 44 whose labels are too. */
export async function smallTargets(page: Page, min = MIN_TARGET): Promise<SmallTarget[]> {
  return page.evaluate(
    ({ selector, min }) => {
      const big = (r: DOMRect) => r.width >= min - 0.5 && r.height >= min - 0.5
      const shown = (el: Element) => {
        if (el.closest('[inert], [aria-hidden="true"]')) return false
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false
        const r = el.getBoundingClientRect()
        return r.width > 2 && r.height > 2
      }
      const inSentence = (el: Element) => {
        if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false
        const parent = el.parentElement
        if (!parent) return false
        return Array.from(parent.childNodes).some(
          (n) => n !== el && n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim().length > 0,
        )
      }
      const nameOf = (el: Element) => {
        const id = el.getAttribute('data-testid')
        const label =
          el.getAttribute('aria-label') ??
          (el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : null) ??
          el.textContent
        const text = (label ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
        const role = el.getAttribute('role') ?? el.tagName.toLowerCase()
        const type = el instanceof HTMLInputElement ? `[${el.type}]` : ''
        return `${role}${type}${id ? `#${id}` : ''} "${text}"`
      }
      const out: { name: string; width: number; height: number }[] = []
      for (const el of Array.from(document.querySelectorAll(selector))) {
        const labels =
          el instanceof HTMLInputElement ||
          el instanceof HTMLSelectElement ||
          el instanceof HTMLTextAreaElement
            ? Array.from(el.labels ?? [])
            : []
        const visibleLabels = labels.filter(shown)
        if (!shown(el) && visibleLabels.length === 0) continue
        if (inSentence(el)) continue
        const own = el.getBoundingClientRect()
        if (shown(el) && big(own)) continue
        if (visibleLabels.some((l) => big(l.getBoundingClientRect()))) continue
        // The box that counts: the biggest of the control and its labels.
        const boxes = [own, ...visibleLabels.map((l) => l.getBoundingClientRect())]
        const best = boxes.reduce((a, b) =>
          Math.min(b.width, b.height) > Math.min(a.width, a.height) ? b : a,
        )
        out.push({ name: nameOf(el), width: Math.round(best.width), height: Math.round(best.height) })
      }
      return out
    },
    { selector: CONTROLS, min },
  )
}
