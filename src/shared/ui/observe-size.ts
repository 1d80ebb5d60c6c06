import type { Rect, Virtualizer } from '@tanstack/react-virtual'

/**
 * A virtualised list's size as the browser reports it after its own layout, for `observeElementRect`. The
 * library's default measures the element at once, which forces a layout of the whole page inside React's
 * commit; the observer's first report comes with the next frame's layout instead, before that frame is
 * painted. Until then the list's `initialRect` (the window's height) stands in.
 */
export function observeSize(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  const element = instance.scrollElement
  if (!element || typeof ResizeObserver === 'undefined') return
  const observer = new ResizeObserver(([entry]) => {
    if (entry)
      cb({ width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) })
  })
  observer.observe(element)
  return () => observer.disconnect()
}
