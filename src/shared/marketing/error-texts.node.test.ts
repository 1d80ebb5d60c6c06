import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES_DIR, catalog, locales } from '../../core/testing/po-catalog.ts'
import { MARKETING_ERROR_NAMES, MARKETING_ERROR_CODES } from '../../core/graph/errors.ts'
import { marketingErrorText } from './error-texts.ts'

describe('marketing error texts', () => {
  it('has a text for every marketing error name, documented codes and product refusals alike', () => {
    for (const name of MARKETING_ERROR_NAMES) {
      const text = marketingErrorText(name)
      expect(text, name).toBeDefined()
      expect(text.message, name).toMatch(/\p{L}/u)
    }
    for (const name of new Set(Object.values(MARKETING_ERROR_CODES))) {
      expect(MARKETING_ERROR_NAMES).toContain(name)
    }
  })

  it('gives different errors different texts', () => {
    const texts = MARKETING_ERROR_NAMES.map((n) => marketingErrorText(n).message)
    expect(new Set(texts).size).toBe(texts.length)
  })

  for (const locale of locales) {
    it(`${locale}/marketing.po translates every marketing error text`, () => {
      const byId = catalog(readFileSync(join(LOCALES_DIR, locale, 'marketing.po'), 'utf8'))
      for (const name of MARKETING_ERROR_NAMES) {
        const english = marketingErrorText(name).message!
        const translated = byId.get(english)
        expect(translated, `${locale}: ${name}`).toBeTruthy()
        if (locale !== 'en') expect(translated, `${locale}: ${name}`).not.toBe(english)
      }
    })
  }
})
