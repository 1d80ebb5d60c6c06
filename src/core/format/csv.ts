/**
 * CSV as spreadsheets read it (RFC 4180): every field quoted, quotes doubled, lines ended by CRLF. A field that
 * a spreadsheet would take for a formula (starting with = + - @, a tab or a carriage return) is prefixed with
 * an apostrophe, so a customer's name can never run as one.
 */

const FORMULA_START = /^[=+\-@\t\r]/

export function csvField(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return `"${text.replaceAll('"', '""')}"`
}

export function csvRow(fields: readonly (string | number | boolean | null | undefined)[]): string {
  return fields.map(csvField).join(',')
}

/** The whole file: a byte-order mark (spreadsheets then read UTF-8), the header and the rows. */
export function csvDocument(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  return `\uFEFF${[header, ...rows].map(csvRow).join('\r\n')}\r\n`
}
