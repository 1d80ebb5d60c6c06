/**
 * Resolves once a real screen (the login screen, the terms gate or the signed-in layout, not the loading
 * dots) has been painted. Work the first screen does not need (the service worker, storage checks) waits for
 * it, so on a slow connection it does not compete with that screen's code and data.
 */
import { startTransition, useEffect, useState } from 'react'

let shownAlready = false
let markShown: () => void = () => undefined
const shown = new Promise<void>((resolve) => {
  markShown = () => {
    shownAlready = true
    resolve()
  }
})

export function firstScreenShown(): Promise<void> {
  return shown
}

/** False until the first screen has been painted: for parts of a screen that can come a moment later. */
export function useFirstScreenShown(): boolean {
  // Once the first screen has been shown (any later screen, a navigation), it is true from the first render.
  const [shownYet, setShownYet] = useState(() => shownAlready)
  useEffect(() => {
    if (shownYet) return
    let live = true
    void shown.then(() => live && startTransition(() => setShownYet(true)))
    return () => {
      live = false
    }
  }, [shownYet])
  return shownYet
}

/**
 * Called by each screen that can come first. The effect runs after the commit; the screen counts as shown
 * once the frame after the one that drew it begins: by then it is on the display, not only drawn, and what
 * waits for it does not compete with its last step.
 */
export function useFirstScreenMark(): void {
  useEffect(() => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(markShown)))
  }, [])
}
