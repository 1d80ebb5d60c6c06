/**
 * Every non-English catalog must translate every message: an empty msgstr, or one identical to English,
 * fails the run (brand words, placeholders and codes may stay as they are).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const LOCALES_DIR = join(import.meta.dirname, '..', 'locales')
const SOURCE = 'en'
/** Words that are the same in every language: names and codes, not sentences. */
const SAME_EVERYWHERE = ['Pagecast', 'Facebook', 'Messenger', 'ID', 'USD', 'OK', 'NG', 'PWA']
/** Words spelled the same in English and in that language, checked by a speaker. */
const SAME_IN: Record<string, readonly string[]> = { es: ['No'], id: [], fil: [] }

interface Entry {
  msgid: string
  msgstr: string
}

function unquote(line: string): string {
  const m = /"(.*)"\s*$/.exec(line)
  return m ? JSON.parse(`"${m[1]}"`) : ''
}

export function parsePo(text: string): Entry[] {
  const entries: Entry[] = []
  let field: 'msgid' | 'msgstr' | undefined
  let current: Entry = { msgid: '', msgstr: '' }
  const flush = () => {
    if (current.msgid) entries.push(current)
    current = { msgid: '', msgstr: '' }
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('msgid ')) {
      flush()
      field = 'msgid'
      current.msgid = unquote(line.slice(6))
    } else if (line.startsWith('msgstr ')) {
      field = 'msgstr'
      current.msgstr = unquote(line.slice(7))
    } else if (line.startsWith('"') && field) {
      current[field] += unquote(line)
    } else if (line === '' || line.startsWith('#')) {
      field = line === '' ? undefined : field
    }
  }
  flush()
  return entries
}

/** True when nothing is left to translate once placeholders, punctuation and brand words are removed. */
export function needsNoTranslation(msgid: string): boolean {
  let rest = msgid.replace(/\{[^}]*\}/g, ' ').replace(/<\/?\d+>/g, ' ')
  for (const word of SAME_EVERYWHERE) rest = rest.replaceAll(word, ' ')
  return !/\p{L}/u.test(rest)
}

const locales = readdirSync(LOCALES_DIR).filter((d) => !d.includes('.'))
const catalogs = readdirSync(join(LOCALES_DIR, SOURCE)).filter((f) => f.endsWith('.po'))

describe('translation catalogs', () => {
  it('parses msgid and msgstr pairs, including continued lines', () => {
    const po = 'msgid ""\nmsgstr ""\n"Language: es\\n"\n\n#: a.tsx:1\nmsgid "Hello"\nmsgstr ""\n"Hola"\n'
    expect(parsePo(po)).toEqual([{ msgid: 'Hello', msgstr: 'Hola' }])
  })

  it('lets brand words and bare placeholders stay the same, but not sentences', () => {
    expect(needsNoTranslation('{0} · ID {1}')).toBe(true)
    expect(needsNoTranslation('Pagecast')).toBe(true)
    expect(needsNoTranslation('Continue with Facebook')).toBe(false)
  })

  for (const locale of locales.filter((l) => l !== SOURCE)) {
    for (const catalog of catalogs) {
      it(`${locale}/${catalog} translates every message`, () => {
        const entries = parsePo(readFileSync(join(LOCALES_DIR, locale, catalog), 'utf8'))
        const empty = entries.filter((e) => e.msgstr.trim() === '').map((e) => e.msgid)
        const english = entries
          .filter(
            (e) =>
              e.msgstr.trim() !== '' &&
              e.msgstr === e.msgid &&
              !needsNoTranslation(e.msgid) &&
              !SAME_IN[locale]?.includes(e.msgid),
          )
          .map((e) => e.msgid)
        expect({ empty, english }).toEqual({ empty: [], english: [] })
      })
    }
  }
})
