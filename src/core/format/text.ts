/**
 * Cutting customer and owner text for previews. A cut counts what a reader sees as one letter (a grapheme
 * cluster): a Bengali conjunct, a Khmer consonant with its subscript or an emoji family is never split, so the
 * preview never ends in a dangling mark or half an emoji.
 */
const ELLIPSIS = '…'

let segmenter: Intl.Segmenter | undefined
function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  return Array.from(segmenter.segment(text), (s) => s.segment)
}

/**
 * Signs that join the next consonant into the same written cluster: Khmer COENG (its subscript form) and the
 * Bengali and Devanagari viramas. Engines whose grapheme rules predate Unicode 15.1 (and every engine for
 * Khmer) end a cluster after them, which would leave the sign dangling at the end of a preview.
 */
const JOINERS = /[\u17D2\u09CD\u094D\u1039]$/u

/**
 * The first `max` graphemes of `text` followed by an ellipsis, or `text` itself when it is no longer than
 * that. Trailing spaces before the ellipsis are dropped.
 */
export function cutText(text: string, max: number): string {
  const parts = graphemes(text)
  if (parts.length <= max) return text
  let end = max
  while (end < parts.length && JOINERS.test(parts[end - 1] ?? '')) end += 1
  if (end >= parts.length) return text
  return parts.slice(0, end).join('').trimEnd() + ELLIPSIS
}

/** How many graphemes `text` has, as a reader counts letters. */
export function graphemeCount(text: string): number {
  return graphemes(text).length
}

/**
 * A name or code from the network, set apart (Unicode first-strong isolate) where it is joined into a sentence
 * held as plain text: an Urdu name in an English sentence, or "(#10)" beside Urdu words, keeps its own order and
 * does not reorder the words around it. In markup, `<bdi>` does the same.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`
}

/**
 * The letters of a name shown in a round avatar: the first letter of its first two words in scripts with
 * capitals ("Kanha Bakery" → "KB"), and only the first letter, whole, in the others: a Bengali, Khmer or Urdu
 * letter with its vowel sign is already as wide as two Latin capitals, and two would not fit the circle.
 */
function firstLetter(word: string): string {
  const parts = graphemes(word)
  let end = 1
  while (end < parts.length && JOINERS.test(parts[end - 1] ?? '')) end += 1
  return parts.slice(0, end).join('')
}

export function initialsOf(name: string | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean)
  const firsts = words.slice(0, 2).map(firstLetter)
  const first = firsts[0] ?? ''
  if (!first) return '?'
  const cased = /\p{Lu}|\p{Ll}/u.test(first)
  return (cased ? firsts.join('') : first).toLocaleUpperCase()
}
