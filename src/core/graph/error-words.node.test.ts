import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES_DIR, catalog, locales } from '../testing/po-catalog.ts'
import { GRAPH_ERROR_KINDS, graphErrorWords, isGraphErrorKind } from './error-words.ts'
import type { GraphErrorKind } from './types.ts'

describe('the words of each Graph failure class', () => {
  it('has words for every class, different for each', () => {
    const every: Record<GraphErrorKind, true> = {
      throttle: true,
      auth: true,
      page_blocked: true,
      config: true,
      outside_window: true,
      recipient_gone: true,
      transient: true,
      network: true,
    }
    expect([...GRAPH_ERROR_KINDS].sort()).toEqual(Object.keys(every).sort())
    const texts = GRAPH_ERROR_KINDS.map((k) => graphErrorWords(k).message)
    expect(new Set(texts).size).toBe(texts.length)
    expect(isGraphErrorKind('config')).toBe(true)
    expect(isGraphErrorKind('(#551)')).toBe(false)
  })

  for (const locale of locales) {
    it(`${locale}/app.po says every class in its own words`, () => {
      const byId = catalog(readFileSync(join(LOCALES_DIR, locale, 'app.po'), 'utf8'))
      for (const kind of GRAPH_ERROR_KINDS) {
        const id = graphErrorWords(kind).message ?? ''
        const text = byId.get(id)
        expect(text, `${locale} ${kind}`).toMatch(/\p{L}/u)
        if (locale !== 'en') expect(text, `${locale} ${kind}`).not.toBe(graphErrorWords(kind).message)
      }
    })
  }
})
