/**
 * A component whose code is fetched on demand, without `React.lazy`. A lazy component suspends on its first
 * render even when its module is already loaded, and React then holds the revealed content back for its
 * fallback throttle (300 ms); here the loaded component is held in state, so the screen shows the moment the
 * code is there. A failed fetch (a dropped connection) is tried again with backoff.
 */
import { type ComponentType, type ReactNode, startTransition, useEffect, useState } from 'react'
import { loadOnce } from './load-once.ts'

const RETRY_FIRST_MS = 1_000
const RETRY_MAX_MS = 30_000

export interface LazyComponent<P extends object> {
  /** Starts fetching the code (once; again after a failure) and resolves with the component. */
  load(): Promise<ComponentType<P>>
  /** Renders the component once loaded, the fallback until then. */
  View: ComponentType<P>
}

export function lazyComponent<P extends object>(
  fetchComponent: () => Promise<ComponentType<P>>,
  fallback: ReactNode,
): LazyComponent<P> {
  const { load, loaded } = loadOnce(fetchComponent)

  function View(props: P) {
    const [Component, setComponent] = useState(() => loaded())
    useEffect(() => {
      if (Component) return
      let live = true
      let timer: number | undefined
      const attempt = (delayMs: number) =>
        load().then(
          // A transition: the screen's first render runs in slices that leave the page responsive.
          (component) => live && startTransition(() => setComponent(() => component)),
          (err: unknown) => {
            console.error('loading code failed; trying again', err)
            if (live)
              timer = window.setTimeout(() => void attempt(Math.min(delayMs * 2, RETRY_MAX_MS)), delayMs)
          },
        )
      void attempt(RETRY_FIRST_MS)
      return () => {
        live = false
        window.clearTimeout(timer)
      }
    }, [Component])
    if (!Component) return fallback
    // The component comes from a loaded module held in state: once set, it is the same on every render.
    return <Component {...props} />
  }
  return { load, View }
}
