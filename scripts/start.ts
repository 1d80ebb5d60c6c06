/** `npm start`: builds the app when the build is missing or older than the sources, then runs the stack. */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return latest
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0
const sources = Math.max(newest('src'), newest('public'), statSync('index.html').mtimeMs, statSync('vite.config.ts').mtimeMs)
if (built < sources) {
  console.log('Building the app…')
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
const env = { SANDBOX_LIVE_MS: '45000', ...process.env }
const r = spawnSync('npx', ['tsx', 'src/stack.ts'], { stdio: 'inherit', env })
process.exit(r.status ?? 0)
