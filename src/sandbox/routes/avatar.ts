/**
 * Deterministic avatars: colour from the id, initials from the person's or page's name. Drawn as SVG and
 * served as JPEG, as the network's CDN serves pictures: a browser decodes a JPEG off the main thread, while an
 * SVG picture is drawn on it at every paint.
 */
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { initialsOf } from '../../core/format/text.ts'

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

const escapeXml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const rendered = new Map<string, Promise<Buffer>>()
/** Enough for every participant of the demo pages; the oldest drawing is dropped beyond it. */
const RENDERED_MAX = 5_000

/** The avatar as JPEG, drawn once per id, name and size. */
export function avatarJpeg(id: string, name: string | undefined, size: number): Promise<Buffer> {
  const key = `${id}\n${name ?? ''}\n${size}`
  let jpeg = rendered.get(key)
  if (!jpeg) {
    jpeg = sharp(Buffer.from(avatarSvg(id, name, size)))
      .jpeg({ quality: 85 })
      .toBuffer()
    jpeg.catch(() => rendered.delete(key))
    if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!)
    rendered.set(key, jpeg)
  }
  return jpeg
}

export function avatarSvg(id: string, name: string | undefined, size: number): string {
  const hash = createHash('sha256').update(id).digest()
  const colour = COLOURS[hash[0]! % COLOURS.length]
  const text = escapeXml(initialsOf(name))
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" fill="${colour}"/>` +
    `<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="40" fill="#fff">${text}</text>` +
    `</svg>`
  )
}
