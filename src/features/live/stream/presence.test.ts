import { afterEach, describe, expect, it } from 'vitest'
import { startPresence } from './presence.ts'

/** A window whose visibility the test sets. */
function fakeWindow() {
  const win = new EventTarget() as EventTarget & { document: EventTarget & { visibilityState: string } }
  win.document = Object.assign(new EventTarget(), { visibilityState: 'visible' })
  return win
}

let stop: (() => void) | undefined
afterEach(() => stop?.())

describe('presence', () => {
  it('is told at once, on every visibility change, regularly only while visible, and when the tab closes', async () => {
    const calls: string[] = []
    const win = fakeWindow()
    stop = startPresence({
      send: async (visible, closing) => void calls.push(`${visible}${closing ? ' closing' : ''}`),
      interval: 30,
      target: win as unknown as Window,
    })
    expect(calls).toEqual(['true'])
    await expect.poll(() => calls.length).toBeGreaterThanOrEqual(3)
    win.document.visibilityState = 'hidden'
    win.document.dispatchEvent(new Event('visibilitychange'))
    const hiddenAt = calls.length
    expect(calls.at(-1)).toBe('false')
    await new Promise((r) => setTimeout(r, 100))
    expect(calls).toHaveLength(hiddenAt)
    win.dispatchEvent(new Event('pagehide'))
    expect(calls.at(-1)).toBe('false closing')
  })
})
