/** Whether a CSS media query matches, kept current as the window changes (a phone turned, a window resized). */
import { useCallback, useSyncExternalStore } from 'react'

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    [query],
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches)
}

/** Tailwind's `md` breakpoint: from here the inbox shows the list and the chat side by side. */
export const SIDE_BY_SIDE = '(min-width: 48rem)'

/**
 * Tailwind's `lg` breakpoint: from here side panels (the bulk progress cards) sit beside the content in a column
 * of their own; below it (phones, phone landscape, small tablets) they fold into a strip under the content.
 */
export const PANELS_BESIDE = '(min-width: 64rem)'
