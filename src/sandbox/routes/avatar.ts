/** Deterministic SVG avatars: colour from the id, initials from the person's or page's name. */
import { createHash } from 'node:crypto'

const COLOURS = [
  '#1e88e5',
  '#43a047',
  '#e53935',
  '#8e24aa',
  '#fb8c00',
  '#00897b',
  '#6d4c41',
  '#3949ab',
  '#d81b60',
  '#546e7a',
]

function firstGrapheme(word: string): string {
  const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  for (const { segment } of seg.segment(word)) return segment
  return ''
}

export function initials(name: string | undefined): string {
  if (!name) return '?'
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters = words.slice(0, 2).map(firstGrapheme).join('')
  return letters.toLocaleUpperCase() || '?'
}

const escapeXml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function avatarSvg(id: string, name: string | undefined, size: number): string {
  const hash = createHash('sha256').update(id).digest()
  const colour = COLOURS[hash[0]! % COLOURS.length]
  const text = escapeXml(initials(name))
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" fill="${colour}"/>` +
    `<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="40" fill="#fff">${text}</text>` +
    `</svg>`
  )
}
