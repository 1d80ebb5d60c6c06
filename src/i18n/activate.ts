/**
 * Loads the catalogs of a locale, activates it and sets `<html lang dir>`. The `start` catalog is awaited (the
 * login screen's words; English, the source locale, ships it inside the entry). The other areas' catalogs
 * (app, inbox, bulk, marketing, pwa) load when something first wants them (`catalogsReady`: the signed-in app
 * all of them beside its code, the PWA notices their own), and again with every locale activated after that.
 * A signed-out visitor downloads only what it shows.
 */
import { i18n, type Messages } from '@lingui/core'
import { messages as englishStart } from '../locales/en/start.po'
import { type LocaleCode, localeDir } from '../core/constants/locales.ts'
import { intlLocale } from '../core/format/intl-locale.ts'
import { LOCALE_SETTING } from './detect.ts'

/** The catalogs besides `start`, one per area of the interface (lingui.config.ts). */
export const AREAS = ['app', 'inbox', 'bulk', 'marketing', 'pwa'] as const
export type Area = (typeof AREAS)[number]

type CatalogModule = { messages: Messages }
// English's start catalog is bundled above; every other catalog loads on demand.
const loaders = import.meta.glob<CatalogModule>(['../locales/*/*.po', '!../locales/en/start.po'])

/** The locale activated last, the areas wanted so far and their loads for that locale. */
let active: LocaleCode = 'en'
const wanted = new Set<Area>()
let loads = new Map<Area, Promise<void>>()
let firstActivated: () => void = () => undefined
const firstActivation = new Promise<void>((resolve) => {
  firstActivated = resolve
})

/** Loads some areas' catalogs of a locale and merges them in at once (one re-render, not one per area). */
function loadAreas(code: LocaleCode, areas: readonly Area[]): Promise<void> {
  const load = Promise.all(areas.map((area) => loaders[`../locales/${code}/${area}.po`]?.()))
    .then((modules) =>
      i18n.load(code, Object.assign({}, ...modules.map((m) => m?.messages ?? {})) as Messages),
    )
    .catch((err: unknown) => console.error('catalogs failed to load', err))
  for (const area of areas) loads.set(area, load)
  return load
}

/**
 * Loads the given areas' catalogs of the active locale (once the first locale is active; each area once) and
 * resolves when they are merged in, or could not be loaded. The signed-in app waits for all of them before its
 * first render: merging later would render the whole app again for the new texts.
 */
export async function catalogsReady(areas: readonly Area[] = AREAS): Promise<void> {
  await firstActivation
  const fresh = areas.filter((area) => !wanted.has(area))
  for (const area of fresh) wanted.add(area)
  if (fresh.length > 0) void loadAreas(active, fresh)
  await Promise.all(areas.map((area) => loads.get(area)))
}

/** Resolves once the locale is active; `areas` resolves when the wanted areas' catalogs are merged in too. */
export async function activateLocale(code: LocaleCode): Promise<{ areas: Promise<void> }> {
  const load = async (area: 'start' | Area) =>
    code === 'en' && area === 'start'
      ? englishStart
      : ((await loaders[`../locales/${code}/${area}.po`]?.())?.messages ?? {})
  // The signed-in app's own words (header, menus, the page list) come with the start's, as they always did
  // once it has them: a new locale never shows that app without them.
  const now = wanted.has('app') ? (['start', 'app'] as const) : (['start'] as const)
  const catalogs = await Promise.all(now.map(load))
  // A copy: lingui merges later catalogs into the object it is given. Plurals' `#` and their categories are
  // formatted in the language's own convention, the same as formatNumber (Spanish in the Mexican style).
  i18n.loadAndActivate({
    locale: code,
    locales: [intlLocale(code)],
    messages: Object.assign({}, ...catalogs) as Messages,
  })
  document.documentElement.lang = code
  document.documentElement.dir = localeDir(code)
  active = code
  loads = new Map(wanted.has('app') ? [['app', Promise.resolve()]] : [])
  const later = [...wanted].filter((area) => area !== 'app')
  const areas = later.length > 0 ? loadAreas(code, later) : Promise.resolve()
  firstActivated()
  return { areas }
}

/** The user's own choice (the language picker): kept for the next visits, then activated. */
export function chooseLocale(code: LocaleCode): void {
  localStorage.setItem(LOCALE_SETTING, code)
  void activateLocale(code)
}
