/**
 * `npm run audit`: Lighthouse 12 (mobile, simulated throttling) on the login, home and inbox routes of the
 * built product, driving Debian's Chromium over its DevTools port. Saves HTML and JSON reports in
 * tests/artifacts/lighthouse, prints the four category scores and exits 1 below budget.
 * `STATIC_DIR` picks the build (default `dist`, built first when missing).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import lighthouse, { type Flags } from 'lighthouse'
import { chromium } from 'playwright-core'
import { startStack } from '../tests/e2e/support/stack.ts'
import { launchDebugChromium } from './audit/chromium-debug.ts'
import { signIn } from './audit/session.ts'

/** Minimum scores (0-100) per category; SEO is printed, not enforced. */
export const AUDIT_BUDGETS: Record<string, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
}
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const outDir = join('tests', 'artifacts', 'lighthouse')

const started = Date.now()
const staticDir = process.env.STATIC_DIR ?? 'dist'
if (!existsSync(join(staticDir, 'index.html'))) {
  console.log(`▶ building into ${staticDir}`)
  const r = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', staticDir, '--emptyOutDir', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  )
  if (r.status !== 0) process.exit(1)
}
mkdirSync(outDir, { recursive: true })

const stack = await startStack({ STATIC_DIR: staticDir })
const browser = await launchDebugChromium()
let failed = false
try {
  const flags: Flags = {
    port: browser.port,
    output: ['html', 'json'],
    logLevel: 'error',
    formFactor: 'mobile',
    screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    throttlingMethod: 'simulate',
    onlyCategories: CATEGORIES,
  }
  const audit = async (name: string, path: string) => {
    const t0 = Date.now()
    const result = await lighthouse(`${stack.url}${path}`, flags)
    if (!result) throw new Error(`lighthouse gave no result for ${name}`)
    const [html, json] = result.report as string[]
    writeFileSync(join(outDir, `${name}.report.html`), html!)
    writeFileSync(join(outDir, `${name}.report.json`), json!)
    const scores = CATEGORIES.map((c) => {
      const score = Math.round((result.lhr.categories[c]?.score ?? 0) * 100)
      const min = AUDIT_BUDGETS[c]
      if (min !== undefined && score < min) failed = true
      return `${c} ${score}${min === undefined ? '' : score < min ? ` ✗ (≥ ${min})` : ' ✓'}`
    })
    console.log(
      `${name.padEnd(6)} ${path.padEnd(24)} ${scores.join(' · ')}  [${((Date.now() - t0) / 1000).toFixed(1)} s]`,
    )
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname
    if (landed !== path) console.log(`         (the app redirected to ${landed})`)
    for (const c of CATEGORIES.filter((c) => (AUDIT_BUDGETS[c] ?? 0) > 0)) {
      const cat = result.lhr.categories[c]
      for (const ref of cat?.auditRefs ?? []) {
        const a = result.lhr.audits[ref.id]
        if (ref.weight > 0 && a && a.score !== null && a.score < 1 && c !== 'performance')
          console.log(`         ${c}: ${a.id} — ${a.title}`)
      }
    }
  }

  await audit('login', '/')
  const session = await signIn(stack.url)
  // The session cookie goes into the browser Lighthouse drives; Lighthouse clears storage but not cookies.
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`)
  await cdp.contexts()[0]!.addCookies([{ ...session.cookie, url: stack.url, sameSite: 'Strict' }])
  await audit('home', '/')
  await audit('inbox', `/${session.pageId}`)
  await cdp.close()
} finally {
  await browser.stop()
  await stack.stop()
}
console.log(`reports in ${outDir}; audit took ${((Date.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed ? 1 : 0)
