/**
 * Every non-English catalog must translate every message: an empty msgstr, or one identical to English,
 * fails the run (brand words, placeholders and codes may stay as they are). A count is said through an ICU
 * plural, and each language's plurals have exactly the categories CLDR gives it (Khmer and Indonesian only
 * `other`, Spanish `one`, `many` and `other`, ...).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { intlLocale } from '../core/format/intl-locale.ts'

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

/** English nouns that are counted: a placeholder right before one (`{n} messages`) is a count said without a plural. */
const COUNTED =
  /\{\w+\}\s+(?:\w+\s+)?(messages?|recipients?|customers?|conversations?|minutes?|hours?|days?|months?|people|persons?|users?|followers?|labels?|sends?|photos?|images?|pages?|jobs?|replies|times)\b/i

/** The words a message says outside its plurals: a count must not stand there before a counted noun. */
export function countsWithoutPlural(msgid: string): string[] {
  let outside = ''
  let depth = 0
  let start = 0
  // Blanks out every `{x, plural, ...}` (nested braces included), keeps plain `{x}` placeholders.
  for (let i = 0; i < msgid.length; i++) {
    const c = msgid[i]
    if (c === '{') {
      if (depth === 0) start = i
      depth++
    } else if (c === '}') {
      depth--
      if (depth === 0) {
        const part = msgid.slice(start, i + 1)
        outside += /^\{\w+,\s*(plural|selectordinal|select),/.test(part) ? ' ' : part
      }
    } else if (depth === 0) outside += c
  }
  const found = COUNTED.exec(outside)
  return found ? [found[0]] : []
}

/** Every plural of a message with the categories it has, nested ones included. */
export function pluralCategories(message: string): { name: string; categories: string[] }[] {
  const found: { name: string; categories: string[] }[] = []
  const head = /\{(\w+),\s*plural,/g
  let m: RegExpExecArray | null
  while ((m = head.exec(message))) {
    const categories: string[] = []
    let i = m.index + m[0].length
    // Reads `category {text}` pairs until the plural's closing brace.
    for (;;) {
      while (/\s/.test(message[i] ?? '')) i++
      if (message[i] === '}' || i >= message.length) break
      const key = /^(=\d+|\w+)\s*\{/.exec(message.slice(i))
      if (!key) break
      categories.push(key[1]!)
      i += key[0].length
      let depth = 1
      while (depth > 0 && i < message.length) {
        if (message[i] === '{') depth++
        else if (message[i] === '}') depth--
        i++
      }
    }
    found.push({ name: m[1]!, categories })
  }
  return found
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

  it('finds a count said without a plural, and the categories of nested plurals', () => {
    expect(countsWithoutPlural('Send to {n} recipients')).toEqual(['{n} recipients'])
    expect(countsWithoutPlural('{count} rejected messages')).toEqual(['{count} rejected messages'])
    expect(
      countsWithoutPlural('{n, plural, one {Send to # recipient} other {Send to # recipients}}'),
    ).toEqual([])
    expect(countsWithoutPlural('As <0>{previewName}</0> will see it')).toEqual([])
    expect(
      pluralCategories('{a, plural, one {# x} other {# xs}}, {b, plural, one {y {c}} many {z} other {# w}}'),
    ).toEqual([
      { name: 'a', categories: ['one', 'other'] },
      { name: 'b', categories: ['one', 'many', 'other'] },
    ])
  })

  for (const catalog of catalogs) {
    it(`en/${catalog} says every count through a plural`, () => {
      const entries = parsePo(readFileSync(join(LOCALES_DIR, SOURCE, catalog), 'utf8'))
      const bare = entries.flatMap((e) => countsWithoutPlural(e.msgid).map((found) => `${found}: ${e.msgid}`))
      expect(bare).toEqual([])
    })
  }

  for (const locale of locales.filter((l) => l !== SOURCE)) {
    const wanted = [...new Intl.PluralRules(intlLocale(locale)).resolvedOptions().pluralCategories].sort()
    for (const catalog of catalogs) {
      it(`${locale}/${catalog} gives every plural the categories of the language (${wanted.join(', ')})`, () => {
        const entries = parsePo(readFileSync(join(LOCALES_DIR, locale, catalog), 'utf8'))
        const wrong = entries.flatMap((e) => {
          const source = pluralCategories(e.msgid).map((p) => p.name)
          const translated = pluralCategories(e.msgstr)
          const names = translated.map((p) => p.name)
          const off = translated
            .filter(
              (p) =>
                p.categories
                  .filter((c) => !c.startsWith('='))
                  .sort()
                  .join() !== wanted.join(),
            )
            .map((p) => `${p.name}: ${p.categories.join(', ')}`)
          const lost = source.filter((name) => !names.includes(name)).map((name) => `${name}: no plural`)
          return [...off, ...lost].map((why) => `${why} in ${e.msgid}`)
        })
        expect(wrong).toEqual([])
      })
    }
  }

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
