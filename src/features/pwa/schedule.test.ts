import { describe, expect, it } from 'vitest'
import { type ScheduleDeps, scheduleServiceWorker } from './schedule.ts'

function fakeBrowser(signedIn: boolean, saveData: boolean) {
  const listeners = new Set<() => void>()
  const idlers: (() => void)[] = []
  const state = { signedIn }
  const deps: ScheduleDeps = {
    isSignedIn: () => state.signedIn,
    subscribe(run) {
      listeners.add(run)
      return () => listeners.delete(run)
    },
    saveData,
    idle: (run) => idlers.push(run),
  }
  return {
    deps,
    signIn() {
      state.signedIn = true
      for (const l of [...listeners]) l()
    },
    goIdle: () => idlers.forEach((run) => run()),
    listeners,
  }
}

describe('scheduleServiceWorker', () => {
  it('registers for a signed-in user at the first idle moment, even on a data-saving connection', () => {
    const browser = fakeBrowser(true, true)
    let calls = 0
    scheduleServiceWorker(() => calls++, browser.deps)
    expect(calls).toBe(0)
    browser.goIdle()
    expect(calls).toBe(1)
  })

  it('waits for idle for a signed-out visitor, then registers once', () => {
    const browser = fakeBrowser(false, false)
    let calls = 0
    scheduleServiceWorker(() => calls++, browser.deps)
    expect(calls).toBe(0)
    browser.goIdle()
    browser.signIn()
    expect(calls).toBe(1)
    expect(browser.listeners.size).toBe(0)
  })

  it('on a data-saving connection waits for the sign-in, not for idle', () => {
    const browser = fakeBrowser(false, true)
    let calls = 0
    scheduleServiceWorker(() => calls++, browser.deps)
    browser.goIdle()
    expect(calls).toBe(0)
    browser.signIn()
    expect(calls).toBe(0)
    browser.goIdle()
    expect(calls).toBe(1)
    expect(browser.listeners.size).toBe(0)
  })
})
