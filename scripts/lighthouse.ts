/**
 * `npm run lighthouse`: Lighthouse 12 (mobile, simulated throttling) on the login, home
 * and inbox routes of the built product, driving Debian's Chromium over its DevTools port. Home and inbox are
 * measured as a returning owner opens them: signed in through the sandbox's login (its session cookie) and
 * the product's, with everything else the device saved cleared before each run (Lighthouse's default).
 * `AUDIT_STORAGE=kept` measures them on a device that opened both before instead: its saved session, local
 * database and service worker are kept between runs. Each route runs `AUDIT_RUNS` times (default 3); the run
 * with the median performance score is judged and saved as HTML and JSON reports in tests/artifacts/lighthouse;
 * every run's score is printed with the machine's speed (@) and the run's total blocking time in ms (tbt).
 * `AUDIT_ROUTES` names the routes to audit (comma-separated; all three by default).
 * `AUDIT_TRACE=1` saves its performance trace there too. Exits 1 below budget.
 * Not part of `npm test`: simulated scores move with the machine's load; `.ci/run` runs it afterwards as a report.
 * `STATIC_DIR` picks the build (default `dist`, built first when missing).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { join } from 'node:path'
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse'
import { chromium } from '@playwright/test'
import { startStack } from '../tests/e2e/support/stack.ts'
import { launchDebugChromium } from './lighthouse/chromium-debug.ts'
import { signIn, visitAsOwner } from './lighthouse/session.ts'

/** Minimum scores (0-100) per category; SEO is printed, not enforced. */
export const AUDIT_BUDGETS: Record<string, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
}
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
/**
 * Runs per route (`AUDIT_RUNS` sets them all). Simulated performance scores move a few points from run to run
 * on a small machine; like Lighthouse CI, the audit judges the run with the median score and prints them all.
 * The login screen's score hardly moves; the signed-in routes get more runs.
 */
type Route = 'login' | 'home' | 'inbox'
const runsFor = (route: Route) => Math.max(1, Number(process.env.AUDIT_RUNS ?? (route === 'login' ? 3 : 5)))
const outDir = join('tests', 'artifacts', 'lighthouse')
/** `AUDIT_ROUTES=inbox` (or `home,inbox`): only these routes are audited; all three by default. */
const wanted = (route: Route) => (process.env.AUDIT_ROUTES ?? route).split(',').includes(route)

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

const stack = await startStack({ STATIC_DIR: staticDir }, { lowPriority: true })
const browser = await launchDebugChromium()
// The measured page runs in Chromium at normal priority; this process (Lighthouse collecting the trace) and
// the server run below it, so on a small machine their work is not counted as the page's.
setPriority(10)
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
  /**
   * Runs Lighthouse on a route and judges the run with the median performance score. Each run measures the
   * machine's speed first (its benchmark index): a run made while the machine was measurably slowed by
   * something else (more than 10% below the fastest run) measures the machine, not the page, and is made
   * again, at most twice; so is a run Lighthouse could not complete (it reports a runtime error and no score).
   */
  const measure = async (name: Route, path: string, keepStorage = false): Promise<boolean> => {
    let ok = true
    const RUNS = runsFor(name)
    const t0 = Date.now()
    const runs: RunnerResult[] = []
    const speed = (r: RunnerResult) => r.lhr.environment.benchmarkIndex
    const completed = (r: RunnerResult) => !r.lhr.runtimeError && r.lhr.categories.performance?.score != null
    const undisturbed = () => {
      const fastest = Math.max(...runs.map(speed))
      return runs.filter((r) => completed(r) && speed(r) >= fastest * 0.9)
    }
    for (let attempt = 0; attempt < RUNS + 2 && (attempt < RUNS || undisturbed().length < RUNS); attempt++) {
      const result = await lighthouse(`${stack.url}${path}`, { ...flags, disableStorageReset: keepStorage })
      if (!result) throw new Error(`lighthouse gave no result for ${name}`)
      runs.push(result)
    }
    // Should every run have failed, the failures themselves are judged (and fail the budget).
    const judged = undisturbed().length > 0 ? undisturbed() : runs
    const performance = (r: RunnerResult) => r.lhr.categories.performance?.score ?? 0
    const result = [...judged].sort((a, b) => performance(a) - performance(b))[Math.floor(judged.length / 2)]!
    const [html, json] = result.report as string[]
    writeFileSync(join(outDir, `${name}.report.html`), html!)
    writeFileSync(join(outDir, `${name}.report.json`), json!)
    // The judged run's performance trace, for the browser's Performance panel.
    if (process.env.AUDIT_TRACE)
      writeFileSync(join(outDir, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace))
    const scores = CATEGORIES.map((c) => {
      const score = Math.round((result.lhr.categories[c]?.score ?? 0) * 100)
      const min = AUDIT_BUDGETS[c]
      if (min !== undefined && score < min) ok = false
      return `${c} ${score}${min === undefined ? '' : score < min ? ` ✗ (≥ ${min})` : ' ✓'}`
    })
    const all = runs
      .map(
        (r) =>
          `${Math.round(performance(r) * 100)} @${Math.round(speed(r))} tbt ${Math.round(r.lhr.audits['total-blocking-time']?.numericValue ?? 0)}${
            judged.includes(r)
              ? ''
              : completed(r)
                ? ' (machine slowed, not judged)'
                : ` (run failed: ${r.lhr.runtimeError?.code ?? 'no score'}, not judged)`
          }`,
      )
      .join(', ')
    console.log(
      `${name.padEnd(6)} ${path.padEnd(24)} ${scores.join(' · ')}  [runs ${all}; ${((Date.now() - t0) / 1000).toFixed(1)} s]`,
    )
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname
    if (landed !== path) {
      ok = false
      console.log(`         ✗ the app redirected to ${landed}: ${name} was not measured`)
    }
    for (const c of CATEGORIES.filter((c) => (AUDIT_BUDGETS[c] ?? 0) > 0)) {
      const cat = result.lhr.categories[c]
      for (const ref of cat?.auditRefs ?? []) {
        const a = result.lhr.audits[ref.id]
        if (ref.weight > 0 && a && a.score !== null && a.score < 1 && c !== 'performance')
          console.log(`         ${c}: ${a.id} — ${a.title}`)
      }
    }
    const metric = (id: string) => result.lhr.audits[id]?.displayValue ?? '?'
    console.log(
      `         FCP ${metric('first-contentful-paint')} · LCP ${metric('largest-contentful-paint')} · TBT ${metric('total-blocking-time')} · CLS ${metric('cumulative-layout-shift')}`,
    )
    return ok
  }

  /**
   * Like a flaky end-to-end test on CI, a route below its budget is measured once more, with a new set of
   * runs (`AUDIT_RETRIES`, default 1): a real regression fails both sets.
   */
  const audit = async (name: Route, path: string, keepStorage = false) => {
    const retries = Number(process.env.AUDIT_RETRIES ?? 1)
    for (let attempt = 0; ; attempt++) {
      if (await measure(name, path, keepStorage)) return
      if (attempt >= retries) {
        failed = true
        return
      }
      console.log(`         ${name} is below its budget: measuring it once more, with new runs`)
    }
  }

  if (wanted('login')) await audit('login', '/')
  const session = await signIn(stack.url)
  // The session cookie goes into the browser Lighthouse drives; Lighthouse clears storage but not cookies.
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`)
  const domain = new URL(stack.url).hostname
  await cdp
    .contexts()[0]!
    .addCookies(session.cookies.map((c) => ({ ...c, domain, sameSite: 'Strict' as const })))
  const keep = process.env.AUDIT_STORAGE === 'kept'
  if (keep) {
    await visitAsOwner(cdp.contexts()[0]!, stack.url, session.pageId)
    console.log('home and inbox: saved session, local database and service worker kept (AUDIT_STORAGE=kept)')
  }
  // Disconnected before measuring: a client attached to the browser instruments every page it opens (some
  // 90 ms of main-thread work at the start of each navigation), which the page would be charged for.
  await cdp.close()
  if (wanted('home')) await audit('home', '/', keep)
  if (wanted('inbox')) await audit('inbox', `/${session.pageId}`, keep)
} finally {
  await browser.stop()
  await stack.stop()
}
console.log(`reports in ${outDir}; audit took ${((Date.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed ? 1 : 0)
