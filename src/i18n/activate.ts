/**
 * Loads the catalogs of a locale, activates it and sets `<html lang dir>`. The `app` catalog is awaited (the
 * first screen needs it); the inbox, bulk, marketing and pwa catalogs follow in the background and are merged
 * when they arrive. English, the source locale, ships its app, inbox, bulk and pwa catalogs inside the entry
 * (a few kB, no request); its marketing catalog, read only once a page uses marketing messages, loads like the
 * others.
 */
import { i18n, type Messages } from '@lingui/core'
import { messages as englishApp } from '../locales/en/app.po'
import { messages as englishBulk } from '../locales/en/bulk.po'
import { messages as englishInbox } from '../locales/en/inbox.po'
import { messages as englishPwa } from '../locales/en/pwa.po'
import { type LocaleCode, localeDir } from '../shared/constants/locales.ts'
import { LOCALE_SETTING } from './detect.ts'

type CatalogModule = { messages: Messages }
// English is bundled above, but for its marketing catalog; the other locales load on demand.
const loaders = {
  ...import.meta.glob<CatalogModule>(['../locales/*/*.po', '!../locales/en/*.po']),
  ...import.meta.glob<CatalogModule>('../locales/en/marketing.po'),
}
const bundled: Partial<Record<LocaleCode, Messages>> = {
  en: { ...englishApp, ...englishInbox, ...englishBulk, ...englishPwa },
}

function areaLoaders(code: LocaleCode): Array<() => Promise<CatalogModule>> {
  return Object.entries(loaders)
    .filter(([path]) => path.includes(`/locales/${code}/`) && !path.endsWith('/app.po'))
    .map(([, load]) => load)
}

let startupCatalogsMerged: () => void = () => undefined
const startupCatalogs = new Promise<void>((resolve) => {
  startupCatalogsMerged = resolve
})

/**
 * Resolves once the first locale's other catalogs are merged in (or could not be loaded). The signed-in app
 * waits for it before its first render: merging later would render the whole app again for the new texts.
 */
export function startupCatalogsReady(): Promise<void> {
  return startupCatalogs
}

/** Resolves once the locale is active; `areas` resolves when the other catalogs are merged in too. */
export async function activateLocale(code: LocaleCode): Promise<{ areas: Promise<void> }> {
  const appLoader = loaders[`../locales/${code}/app.po`]
  const app = bundled[code] ?? (appLoader ? (await appLoader()).messages : {})
  // A copy: lingui merges later catalogs into the object it is given.
  i18n.loadAndActivate({ locale: code, messages: { ...app } })
  document.documentElement.lang = code
  document.documentElement.dir = localeDir(code)
  const areas = Promise.all(areaLoaders(code).map((load) => load()))
    .then((modules) => i18n.load(code, Object.assign({}, ...modules.map((m) => m.messages)) as Messages))
    .catch((err: unknown) => console.error('catalogs failed to load', err))
  void areas.then(() => startupCatalogsMerged())
  return { areas }
}

/** The user's own choice (the language picker): kept for the next visits, then activated. */
export function chooseLocale(code: LocaleCode): void {
  localStorage.setItem(LOCALE_SETTING, code)
  void activateLocale(code)
}
