/**
 * Renders the web app manifest screenshots (public/screenshots) with sharp: a drawing of the inbox on a
 * phone (narrow) and on a desktop (wide). Chromium's richer install dialog shows them.
 */
import sharp from 'sharp'

const brand = '#4f46e5'
const names = [
  'Ana Souza',
  'Bui Minh',
  'Carlos Reyes',
  'Dewi Lestari',
  'Emon Hasan',
  'Farah Khan',
  'Gita Putri',
  'Hugo Díaz',
]
const snippets = [
  'Is the blue one still in stock?',
  'Thanks, got it!',
  'What time do you open?',
  'Can I pay on delivery?',
]

function row(x: number, y: number, w: number, i: number): string {
  const hue = (i * 47) % 360
  return `<g transform="translate(${x} ${y})">
    <circle cx="28" cy="28" r="22" fill="hsl(${hue} 60% 70%)"/>
    <text x="64" y="24" font-size="18" font-weight="600" fill="#0f172a">${names[i % names.length]}</text>
    <text x="64" y="48" font-size="15" fill="#64748b">${snippets[i % snippets.length]}</text>
    <line x1="0" y1="68" x2="${w}" y2="68" stroke="#e2e8f0"/></g>`
}

function header(w: number): string {
  return `<rect width="${w}" height="64" fill="${brand}"/>
  <text x="24" y="41" font-size="22" font-weight="700" fill="#fff">Pagecast</text>`
}

function narrow(w: number, h: number): string {
  const rows = Array.from({ length: 14 }, (_, i) => row(16, 88 + i * 76, w - 32, i)).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">
  <rect width="${w}" height="${h}" fill="#f8fafc"/>${header(w)}${rows}
  <rect x="${w - 196}" y="${h - 88}" width="172" height="56" rx="28" fill="${brand}"/>
  <text x="${w - 110}" y="${h - 53}" font-size="18" font-weight="600" fill="#fff" text-anchor="middle">Bulk message</text></svg>`
}

function wide(w: number, h: number): string {
  const listW = 400
  const rows = Array.from({ length: 9 }, (_, i) => row(16, 88 + i * 76, listW - 32, i)).join('')
  const bubble = (y: number, mine: boolean, text: string) => {
    const bw = 12 + text.length * 9
    const x = mine ? w - 32 - bw : listW + 32
    return `<rect x="${x}" y="${y}" width="${bw}" height="40" rx="18" fill="${mine ? brand : '#e2e8f0'}"/>
    <text x="${x + 14}" y="${y + 26}" font-size="16" fill="${mine ? '#fff' : '#0f172a'}">${text}</text>`
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">
  <rect width="${w}" height="${h}" fill="#f8fafc"/>${header(w)}
  <rect x="0" y="64" width="${listW}" height="${h - 64}" fill="#fff"/>${rows}
  <line x1="${listW}" y1="64" x2="${listW}" y2="${h}" stroke="#e2e8f0"/>
  ${bubble(120, false, 'Is the blue one still in stock?')}
  ${bubble(176, true, 'Yes! We have it in every size.')}
  ${bubble(232, false, 'Can I pay on delivery?')}
  ${bubble(288, true, 'Of course, see you soon.')}
  <rect x="${listW + 24}" y="${h - 80}" width="${w - listW - 48}" height="52" rx="26" fill="#fff" stroke="#cbd5e1"/>
  <text x="${listW + 48}" y="${h - 47}" font-size="16" fill="#94a3b8">Write a reply…</text></svg>`
}

const out = 'public/screenshots'
await sharp(Buffer.from(narrow(540, 1080)))
  .png({ palette: true })
  .toFile(`${out}/narrow.png`)
await sharp(Buffer.from(wide(1280, 800)))
  .png({ palette: true })
  .toFile(`${out}/wide.png`)
console.log('screenshots written to', out)
