/** Whether a CSS media query matches, kept current as the window changes (a phone turned, a window resized). */
import { useCallback, useSyncExternalStore } from 'react'

/** One list per query, kept: asking the browser for a new one at every render costs a slow phone a little each time. */
const lists = new Map<string, MediaQueryList>()

function mediaList(query: string): MediaQueryList {
  let list = lists.get(query)
  if (!list) {
    list = window.matchMedia(query)
    lists.set(query, list)
  }
  return list
}

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = mediaList(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    [query],
  )
  return useSyncExternalStore(subscribe, () => mediaList(query).matches)
}

/** Tailwind's `md` breakpoint: from here the inbox shows the list and the chat side by side. */
export const SIDE_BY_SIDE = '(min-width: 48rem)'

/**
 * Tailwind's `lg` breakpoint: from here side panels (the bulk progress cards) sit beside the content in a column
 * of their own; below it (phones, phone landscape, small tablets) they fold into a strip under the content.
 */
export const PANELS_BESIDE = '(min-width: 64rem)'
