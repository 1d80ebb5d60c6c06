import { describe, expect, it } from 'vitest'
import { csvDocument, csvField, csvRow } from './csv.ts'

describe('CSV fields', () => {
  it('quotes every field and doubles its quotes', () => {
    expect(csvField('plain')).toBe('"plain"')
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField(null)).toBe('""')
    expect(csvField(3)).toBe('"3"')
  })

  it.each(['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises a field a spreadsheet would run as a formula: %j',
    (value) => {
      const field = csvField(value)
      expect(field.startsWith(`"'`)).toBe(true)
      expect(field.slice(2, -1).replaceAll('""', '"')).toBe(value)
    },
  )

  it('writes rows with CRLF after a byte-order mark', () => {
    expect(csvRow(['a', 1])).toBe('"a","1"')
    expect(csvDocument(['h'], [['x'], ['y']])).toBe('\uFEFF"h"\r\n"x"\r\n"y"\r\n')
  })
})
