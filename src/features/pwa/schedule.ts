/**
 * When the service worker is registered. Its code and its caching of the whole app are not needed to sign
 * in, so a signed-out visitor gets them only once the browser is idle, and never on a metered connection
 * (`saveData`) until someone signs in. A signed-in user gets them at the first idle moment (at most 5 s on):
 * the offline start needs them, but the first install's caching of every file would otherwise compete with
 * the screen being drawn for the phone's few cores.
 * Its one import is free of imports too, so the entry chunk can carry it.
 */
import { whenIdle } from '../../shared/ui/when-idle.ts'

export interface ScheduleDeps {
  isSignedIn(): boolean
  /** Calls `run` whenever the session changes; returns the unsubscribe. */
  subscribe(run: () => void): () => void
  /** The visitor asked the browser to save data (Network Information API). */
  saveData: boolean
  /** Runs `run` once the browser is idle. */
  idle(run: () => void): void
}

/** Calls `register` once, when the browser is idle: for a signed-in user, or a visitor who does not save data. */
export function scheduleServiceWorker(register: () => void, deps: ScheduleDeps): void {
  let done = false
  let unsubscribe = () => {}
  const once = () => {
    if (done) return
    done = true
    unsubscribe()
    register()
  }
  if (deps.isSignedIn()) return deps.idle(once)
  unsubscribe = deps.subscribe(() => {
    if (deps.isSignedIn()) deps.idle(once)
  })
  if (!deps.saveData) deps.idle(once)
}

/** The browser's own answers for `scheduleServiceWorker`. */
export function browserIdle(run: () => void): void {
  whenIdle(run, 5_000, 200)
}

export function browserSavesData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection
  return connection?.saveData === true
}
