/**
 * Pull to refresh on a touch screen, with pointer events: a finger that pulls the list down while it is at
 * its top shows how far it pulled, and letting go past the threshold refreshes. At the top the list lets the
 * browser pan only towards its end (`touch-action: pan-down`): the only scroll possible there anyway, and a
 * finger moving down then stays a pointer gesture instead of becoming the browser's. Anywhere else the list
 * scrolls both ways as usual.
 */
import { type PointerEvent, type RefObject, type UIEvent, useCallback, useRef, useState } from 'react'

/** How far (px, after damping) a pull must go to refresh. */
export const PULL_THRESHOLD = 56
const MAX_PULL = 88
/** The indicator moves at half the finger's speed. */
const DAMPING = 0.5

export interface PullToRefresh {
  distance: number
  touchAction: 'pan-down' | 'pan-y'
  onScroll: (e: UIEvent<HTMLElement>) => void
  handlers: {
    onPointerDown: (e: PointerEvent<HTMLElement>) => void
    onPointerMove: (e: PointerEvent<HTMLElement>) => void
    onPointerUp: (e: PointerEvent<HTMLElement>) => void
    onPointerCancel: () => void
  }
}

export function usePullToRefresh(
  scrollRef: RefObject<HTMLElement | null>,
  onRefresh: () => Promise<void>,
): PullToRefresh {
  const [distance, setDistance] = useState(0)
  const [atTop, setAtTop] = useState(true)
  const start = useRef<{ id: number; y: number } | undefined>(undefined)

  const reset = useCallback(() => {
    start.current = undefined
    setDistance(0)
  }, [])

  return {
    distance,
    touchAction: atTop ? 'pan-down' : 'pan-y',
    onScroll: (e) => setAtTop(e.currentTarget.scrollTop <= 0),
    handlers: {
      onPointerDown: (e) => {
        if (e.pointerType === 'mouse' || (scrollRef.current?.scrollTop ?? 0) > 0) return
        start.current = { id: e.pointerId, y: e.clientY }
      },
      onPointerMove: (e) => {
        const s = start.current
        if (!s || s.id !== e.pointerId) return
        setDistance(Math.min(MAX_PULL, Math.max(0, (e.clientY - s.y) * DAMPING)))
      },
      onPointerUp: (e) => {
        const s = start.current
        if (!s || s.id !== e.pointerId) return
        const pulled = Math.min(MAX_PULL, Math.max(0, (e.clientY - s.y) * DAMPING))
        reset()
        if (pulled >= PULL_THRESHOLD) void onRefresh()
      },
      onPointerCancel: reset,
    },
  }
}
