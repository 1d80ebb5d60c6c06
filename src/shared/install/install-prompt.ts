/**
 * The in-app install offer. Chromium fires `beforeinstallprompt` once the app is installable; it is kept
 * (its default mini-bar suppressed) so the app can offer "Install app" at a moment of its own choosing and
 * call `prompt()` from a tap. iOS Safari has no such event: there the offer is the "Share, then Add to Home
 * Screen" instructions. Nothing is offered inside the installed app, on the first visit, or after the owner
 * dismissed it (remembered in this browser).
 */
import { useSyncExternalStore } from 'react'

/** The event Chromium fires; not in TypeScript's DOM library. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

export type InstallWay = 'prompt' | 'ios' | 'none'

/** Local settings, not secrets: do not rename without keeping the old keys' meaning. */
export const INSTALL_DISMISSED_KEY = 'pagecast-install-dismissed'
export const VISITS_KEY = 'pagecast-visits'
/** The offer waits for this many app starts in this browser: a first visit is for the app itself. */
export const OFFER_FROM_VISIT = 2

interface State {
  deferred?: BeforeInstallPromptEvent
  installed: boolean
  dismissed: boolean
}

let state: State = { installed: false, dismissed: false }
const listeners = new Set<() => void>()
function set(next: Partial<State>) {
  state = { ...state, ...next }
  listeners.forEach((l) => l())
}

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

let visits = 0

/**
 * Starts listening (call once, early: the event may come before the first screen) and counts this visit.
 * Returns the way to stop listening.
 */
export function captureInstallPrompt(win: Window = window): () => void {
  const store = storage()
  visits = Number(store?.getItem(VISITS_KEY) ?? '0') + 1
  store?.setItem(VISITS_KEY, String(visits))
  state = { installed: false, dismissed: store ? store.getItem(INSTALL_DISMISSED_KEY) !== null : false }
  const keep = (event: Event) => {
    event.preventDefault()
    set({ deferred: event as BeforeInstallPromptEvent })
  }
  const installed = () => set({ deferred: undefined, installed: true })
  win.addEventListener('beforeinstallprompt', keep)
  win.addEventListener('appinstalled', installed)
  return () => {
    win.removeEventListener('beforeinstallprompt', keep)
    win.removeEventListener('appinstalled', installed)
  }
}

function standalone(win: Window): boolean {
  const nav = win.navigator as Navigator & { standalone?: boolean }
  return nav.standalone === true || win.matchMedia?.('(display-mode: standalone)').matches === true
}

/** iPhone and iPad Safari (iPadOS says "Macintosh" but has touch); other iOS browsers cannot add to home. */
export function isIosSafari(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'>): boolean {
  const ua = nav.userAgent
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && nav.maxTouchPoints > 1)
  return ios && /Safari\//.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(ua)
}

/** How this browser can install the app now, whatever the moment. */
export function installWay(win: Window = window): InstallWay {
  if (state.installed || standalone(win)) return 'none'
  if (state.deferred) return 'prompt'
  return isIosSafari(win.navigator) ? 'ios' : 'none'
}

/** Whether the app offers itself unasked (home): installable, not the first visit, not dismissed. */
export function offerNow(win: Window = window): boolean {
  return installWay(win) !== 'none' && visits >= OFFER_FROM_VISIT && !state.dismissed
}

/** Shows the browser's install dialog; the event can be used once, so it is dropped either way. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = state.deferred
  if (!event) return 'unavailable'
  set({ deferred: undefined })
  await event.prompt()
  const { outcome } = await event.userChoice
  if (outcome === 'accepted') set({ installed: true })
  return outcome
}

export function dismissInstallOffer(): void {
  storage()?.setItem(INSTALL_DISMISSED_KEY, String(Date.now()))
  set({ dismissed: true })
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Re-renders when the event arrives, is used, or the offer is dismissed. */
export function useInstallOffer(): { way: InstallWay; offer: boolean } {
  useSyncExternalStore(subscribe, () => state)
  return { way: installWay(), offer: offerNow() }
}
