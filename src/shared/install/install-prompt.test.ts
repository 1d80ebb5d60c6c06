import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  INSTALL_DISMISSED_KEY,
  VISITS_KEY,
  captureInstallPrompt,
  dismissInstallOffer,
  installWay,
  isIosSafari,
  offerNow,
  promptInstall,
} from './install-prompt.ts'

/** What Chromium fires once the app is installable, with a spy for its prompt(). */
function installEvent(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = new Event('beforeinstallprompt', { cancelable: true })
  const prompt = vi.fn(async () => undefined)
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome }) })
  return { event, prompt }
}

let stop: (() => void) | undefined
afterEach(() => {
  stop?.()
  localStorage.removeItem(VISITS_KEY)
  localStorage.removeItem(INSTALL_DISMISSED_KEY)
})

describe('the install offer', () => {
  it('keeps the browser event, suppressing its own bar, but offers nothing unasked on a first visit', () => {
    stop = captureInstallPrompt()
    expect(installWay()).toBe('none')
    const { event } = installEvent()
    window.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(true)
    expect(installWay()).toBe('prompt')
    expect(offerNow()).toBe(false)
  })

  it('offers itself from the second visit and shows the browser dialog from a tap, once', async () => {
    localStorage.setItem(VISITS_KEY, '1')
    stop = captureInstallPrompt()
    const { event, prompt } = installEvent('accepted')
    window.dispatchEvent(event)
    expect(offerNow()).toBe(true)
    expect(await promptInstall()).toBe('accepted')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(installWay()).toBe('none')
    expect(await promptInstall()).toBe('unavailable')
  })

  it('remembers a dismissal: no offer unasked on later visits, the menu button stays', () => {
    localStorage.setItem(VISITS_KEY, '3')
    stop = captureInstallPrompt()
    window.dispatchEvent(installEvent().event)
    dismissInstallOffer()
    expect(offerNow()).toBe(false)
    stop()
    stop = captureInstallPrompt()
    window.dispatchEvent(installEvent().event)
    expect(offerNow()).toBe(false)
    expect(installWay()).toBe('prompt')
  })

  it('stops offering once the app is installed', () => {
    localStorage.setItem(VISITS_KEY, '5')
    stop = captureInstallPrompt()
    window.dispatchEvent(installEvent().event)
    window.dispatchEvent(new Event('appinstalled'))
    expect(installWay()).toBe('none')
    expect(offerNow()).toBe(false)
  })

  it('recognises Safari on iPhone and iPad, not the other iOS browsers or desktop Safari', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
    const ipad =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'
    const chromeIos =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0 Mobile/15E148 Safari/604.1'
    expect(isIosSafari({ userAgent: iphone, maxTouchPoints: 5 })).toBe(true)
    expect(isIosSafari({ userAgent: ipad, maxTouchPoints: 5 })).toBe(true)
    expect(isIosSafari({ userAgent: ipad, maxTouchPoints: 0 })).toBe(false)
    expect(isIosSafari({ userAgent: chromeIos, maxTouchPoints: 5 })).toBe(false)
  })
})
