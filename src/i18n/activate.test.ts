import { i18n, type Messages } from '@lingui/core'
import { plural } from '@lingui/core/macro'
import { expect, it } from 'vitest'
import { messages as bnApp } from '../locales/bn/app.po'
import { messages as bnInbox } from '../locales/bn/inbox.po'
import { messages as bnPwa } from '../locales/bn/pwa.po'
import { messages as esApp } from '../locales/es/app.po'
import { messages as esInbox } from '../locales/es/inbox.po'
import { messages as esPwa } from '../locales/es/pwa.po'
import { messages as esStart } from '../locales/es/start.po'
import { activateLocale, catalogsReady } from './activate.ts'

/** Whether the active locale has the catalog's first message loaded. */
const loaded = (catalog: Messages) => Object.keys(catalog)[0]! in i18n.messages

it('loads only the start catalog for a signed-out visitor, each other area when wanted, and the wanted ones again with a new locale', async () => {
  await activateLocale('es')
  expect(i18n.locale).toBe('es')
  expect(loaded(esStart)).toBe(true)
  // The signed-in app's own words (the account, the plans, the page list) wait for a session.
  expect(loaded(esApp)).toBe(false)
  expect(loaded(esPwa)).toBe(false)
  expect(loaded(esInbox)).toBe(false)

  // The PWA notices want their own words only.
  await catalogsReady(['pwa'])
  expect(loaded(esPwa)).toBe(true)
  expect(loaded(esInbox)).toBe(false)

  // Another locale brings the areas wanted so far, and no other.
  const { areas } = await activateLocale('bn')
  await areas
  expect(loaded(bnPwa)).toBe(true)
  expect(loaded(bnInbox)).toBe(false)
  expect(loaded(bnApp)).toBe(false)

  // The signed-in app wants every area.
  await catalogsReady()
  expect(loaded(bnInbox)).toBe(true)
  expect(loaded(bnApp)).toBe(true)
  // The signed-in app's own words come with a new locale at once; the other areas' follow.
  const back = await activateLocale('es')
  expect(loaded(esApp)).toBe(true)
  await back.areas
  expect(loaded(esInbox)).toBe(true)
})

it("writes a plural's count in the language's own convention, Spanish in the Mexican style", async () => {
  await activateLocale('es')
  await catalogsReady()
  const count = 1225
  expect(plural(count, { one: '# conversation synced', other: '# conversations synced' })).toBe(
    '1,225 conversaciones sincronizadas',
  )
  await (
    await activateLocale('bn')
  ).areas
  expect(plural(count, { one: '# conversation synced', other: '# conversations synced' })).toMatch(/^১,২২৫/)
})
