/** The interface languages. `dir` drives `<html dir>`; do not reorder without checking the picker. */
export const locales = [
  { code: 'en', label: 'English', dir: 'ltr' },
  { code: 'es', label: 'Español', dir: 'ltr' },
  { code: 'km', label: 'ខ្មែរ', dir: 'ltr' },
  { code: 'id', label: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'fil', label: 'Filipino', dir: 'ltr' },
  { code: 'ur', label: 'اردو', dir: 'rtl' },
  { code: 'bn', label: 'বাংলা', dir: 'ltr' },
] as const

export type LocaleCode = (typeof locales)[number]['code']
export const sourceLocale: LocaleCode = 'en'

export function isLocaleCode(value: string): value is LocaleCode {
  return locales.some((l) => l.code === value)
}

export function localeDir(code: LocaleCode): 'ltr' | 'rtl' {
  return locales.find((l) => l.code === code)?.dir ?? 'ltr'
}
