import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MARKETING_ERROR_NAMES, MARKETING_ERROR_CODES } from '../graph/errors.ts'
import { marketingErrorText } from './error-texts.ts'

const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')
const locales = readdirSync(LOCALES_DIR).filter((d) => !d.includes('.'))

/** msgid -> msgstr of a catalog, continued lines joined. */
function catalog(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const block of text.split(/\n\s*\n/)) {
    let field: 'id' | 'str' | undefined
    let id = ''
    let str = ''
    for (const line of block.split('\n').map((l) => l.trim())) {
      const m = /^(msgid|msgstr)?\s*"(.*)"$/.exec(line)
      if (!m) continue
      if (m[1]) field = m[1] === 'msgid' ? 'id' : 'str'
      const part = JSON.parse(`"${m[2]}"`) as string
      if (field === 'id') id += part
      else if (field === 'str') str += part
    }
    if (id) out.set(id, str)
  }
  return out
}

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
