import type { Rect, Virtualizer } from '@tanstack/react-virtual'
import { afterEach, expect, it } from 'vitest'
import { observeSize } from './observe-size.ts'

const made: HTMLElement[] = []
afterEach(() => made.splice(0).forEach((e) => e.remove()))

function box(width: number, height: number): HTMLDivElement {
  const el = document.createElement('div')
  el.style.cssText = `width:${width}px;height:${height}px`
  document.body.append(el)
  made.push(el)
  return el
}

const list = (scrollElement: HTMLDivElement | null) =>
  ({ scrollElement }) as unknown as Virtualizer<HTMLDivElement, Element>

it("reports the list's size after layout, again when it changes, and nothing once disconnected", async () => {
  const el = box(200.4, 300.6)
  const seen: Rect[] = []
  const stop = observeSize(list(el), (r) => seen.push(r))
  // Nothing is measured during the call: the first size comes with the observer.
  expect(seen).toEqual([])
  await expect.poll(() => seen.at(-1)).toEqual({ width: 200, height: 301 })
  el.style.height = '120px'
  await expect.poll(() => seen.at(-1)).toEqual({ width: 200, height: 120 })
  stop?.()
  const count = seen.length
  el.style.height = '50px'
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
  expect(seen).toHaveLength(count)
})

it('observes nothing without a scroll element', () => {
  expect(observeSize(list(null), () => undefined)).toBeUndefined()
})
