import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { detectLocale, LOCALE_SETTING } from './detect.ts'
import { activateLocale, chooseLocale } from './activate.ts'

describe('detectLocale', () => {
  it('takes the first supported browser language, by region-less base', () => {
    expect(detectLocale(['de-DE', 'es-MX', 'en'], null)).toBe('es')
  })
  it('maps Tagalog to Filipino', () => {
    expect(detectLocale(['tl-PH'], null)).toBe('fil')
  })
  it('falls back to English when nothing matches', () => {
    expect(detectLocale(['de', 'fr'], null)).toBe('en')
  })
  it('prefers the language the user picked', () => {
    expect(detectLocale(['es'], 'bn')).toBe('bn')
  })
  it('ignores a saved value that is not a supported locale', () => {
    expect(detectLocale(['km-KH'], 'xx')).toBe('km')
  })
})

describe('activateLocale', () => {
  it('sets dir="rtl" on the document for Urdu and back to ltr for English', async () => {
    await activateLocale('ur')
    expect(document.documentElement.dir).toBe('rtl')
    expect(document.documentElement.lang).toBe('ur')
    await activateLocale('en')
    expect(document.documentElement.dir).toBe('ltr')
  })
})

describe('chooseLocale', () => {
  it('keeps the picked language for the next visit and activates it', async () => {
    chooseLocale('km')
    expect(localStorage.getItem(LOCALE_SETTING)).toBe('km')
    expect(detectLocale(['en-US'], localStorage.getItem(LOCALE_SETTING))).toBe('km')
    await expect.poll(() => i18n.locale).toBe('km')
    localStorage.removeItem(LOCALE_SETTING)
    await activateLocale('en')
  })
})
