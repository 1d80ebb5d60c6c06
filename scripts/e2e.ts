/** End-to-end tests against the built product: builds when dist/ is missing, then runs Playwright. */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (!existsSync('dist/index.html')) {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
