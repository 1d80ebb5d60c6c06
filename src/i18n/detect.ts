/** Chooses the interface language: the user's own choice, else the browser's languages, else English. */
import { type LocaleCode, isLocaleCode, sourceLocale } from '../core/constants/locales.ts'

export const LOCALE_SETTING = 'pagecast-locale'

export function detectLocale(languages: readonly string[], saved: string | null): LocaleCode {
  if (saved && isLocaleCode(saved)) return saved
  for (const tag of languages) {
    const lower = tag.toLowerCase()
    if (isLocaleCode(lower)) return lower
    const base = lower.split('-')[0] ?? ''
    if (base === 'tl') return 'fil'
    if (isLocaleCode(base)) return base
  }
  return sourceLocale
}
