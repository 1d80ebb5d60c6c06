/** Loads the catalogs of a locale, activates it and sets `<html lang dir>`. */
import { i18n, type Messages } from '@lingui/core'
import { type LocaleCode, localeDir } from './locales-table.ts'

type CatalogModule = { messages: Messages }
const loaders = import.meta.glob<CatalogModule>('../locales/*/*.po')

export async function activateLocale(code: LocaleCode): Promise<void> {
  const entries = Object.entries(loaders).filter(([path]) => path.includes(`/locales/${code}/`))
  const modules = await Promise.all(entries.map(([, load]) => load()))
  const messages: Messages = Object.assign({}, ...modules.map((m) => m.messages))
  i18n.loadAndActivate({ locale: code, messages })
  document.documentElement.lang = code
  document.documentElement.dir = localeDir(code)
}
