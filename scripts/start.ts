/**
 * `npm start`: checks the configuration (settings, database, port, data folder), builds the app when the
 * build is missing or older than the sources, then runs the stack. A bad setting stops it before the build,
 * with one sentence naming the setting.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { StartupError, checkStartup } from '../src/server/boot-checks.ts'
import { ConfigError, loadConfig } from '../src/server/config.ts'

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return latest
}

const env = { SANDBOX_LIVE_MS: '45000', ...process.env }
try {
  await checkStartup(loadConfig(env))
} catch (err) {
  // ConfigError and StartupError carry one sentence; anything else is a fault worth its stack.
  if (err instanceof ConfigError || err instanceof StartupError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0
const sources = Math.max(
  newest('src'),
  newest('public'),
  statSync('index.html').mtimeMs,
  statSync('vite.config.ts').mtimeMs,
)
if (built < sources) {
  console.log('Building the app…')
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
const r = spawnSync('npx', ['tsx', 'src/stack.ts'], { stdio: 'inherit', env })
process.exit(r.status ?? 0)
