/** Renders the app icons in public/icons from the logo drawn here (run after changing the logo). */
import sharp from 'sharp'

const mark = (size: number, inset: number, rounded: boolean) => {
  const s = size
  const r = rounded ? s * 0.22 : 0
  const k = (s - 2 * inset) / 64
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <rect width="${s}" height="${s}" rx="${r}" fill="#4f46e5"/>
  <g transform="translate(${inset} ${inset}) scale(${k})">
    <path d="M14 16h36a5 5 0 0 1 5 5v18a5 5 0 0 1-5 5H29l-11 9v-9h-4a5 5 0 0 1-5-5V21a5 5 0 0 1 5-5z" fill="#fff"/>
    <circle cx="22" cy="30" r="3" fill="#4f46e5"/><circle cx="32" cy="30" r="3" fill="#4f46e5"/><circle cx="42" cy="30" r="3" fill="#4f46e5"/>
  </g></svg>`)
}

const out = 'public/icons'
await sharp(mark(192, 16, true)).png().toFile(`${out}/icon-192.png`)
await sharp(mark(512, 40, true)).png().toFile(`${out}/icon-512.png`)
// Maskable: full-bleed background, the mark inside the 80% safe zone.
await sharp(mark(512, 100, false)).png().toFile(`${out}/icon-maskable-512.png`)
await sharp(mark(180, 18, false)).png().toFile(`${out}/apple-touch-icon-180.png`)
console.log('icons written to', out)
