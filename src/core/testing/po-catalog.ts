/** The translation catalogs as tests read them: each locale's msgid -> msgstr of one area's catalog. */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

export const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')
export const locales = readdirSync(LOCALES_DIR).filter((d) => !d.includes('.'))

/** msgid -> msgstr of a catalog, continued lines joined. */
export function catalog(text: string): Map<string, string> {
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
