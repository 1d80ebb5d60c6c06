/**
 * `npm test`: every suite (unit and server tests, browser tests, build and budgets, then the end-to-end tests
 * with lint and typecheck beside them), then one summary line over all of them:
 * `tests: N passed, M failed[, K skipped]`.
 * Exits non-zero when anything failed.
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromiumPath, headlessShellPath } from './chromium.ts'
import {
  type Counts,
  type SpecTime,
  addCounts,
  parsePlaywrightJson,
  parseVitestJson,
  playwrightFailures,
  playwrightSpecTimes,
  slowestSpecs,
  vitestFailures,
  vitestSpecTimes,
} from './test-report.ts'

const reportDir = join('tests', 'artifacts', 'reports')
rmSync(reportDir, { recursive: true, force: true })
mkdirSync(reportDir, { recursive: true })

const total: Counts = { passed: 0, failed: 0, skipped: 0 }
const failures: string[] = []
const started = Date.now()
/**
 * The machine's CPU time so far, busy and in all (clock ticks over every core, from /proc/stat; zeros where
 * there is none): a step's share of it says whether the step waited or was held back by the cores.
 */
function cpuTicks(): { busy: number; all: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const all = fields.reduce((a, b) => a + b, 0)
    // idle and iowait are the 4th and 5th fields.
    return { busy: all - fields[3]! - (fields[4] ?? 0), all }
  } catch {
    return { busy: 0, all: 0 }
  }
}

/** Seconds each step took (with the machine's CPU use over the step when it was long), printed before the summary line. */
const times: string[] = []

/** A step's name in the times line: the tool, the script a tool runs, or the npm script. */
function stepName(args: readonly string[]): string | undefined {
  return args[0] === 'tsx' ? args[1] : args[0] === 'run' ? args.at(-1) : args[0]
}

/** Runs a command to its end; it answers whether it succeeded. Steps run one after another, awaited. */
function exited(
  cmd: string,
  args: readonly string[],
  options: Parameters<typeof spawn>[2],
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, options)
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
}

async function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<boolean> {
  console.log(`\n▶ ${cmd} ${args.join(' ')}`)
  const t0 = Date.now()
  const cpu0 = cpuTicks()
  const ok = await exited(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  const seconds = Math.round((Date.now() - t0) / 1000)
  const cpu1 = cpuTicks()
  const busy =
    cpu1.all > cpu0.all ? Math.round((100 * (cpu1.busy - cpu0.busy)) / (cpu1.all - cpu0.all)) : undefined
  times.push(
    `${stepName(args)} ${seconds} s${seconds >= 30 && busy !== undefined ? ` (cpu ${busy}% busy)` : ''}`,
  )
  return ok
}

/** A step that is one check (lint, typecheck, build): it counts as one test. */
async function check(
  name: string,
  cmd: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<boolean> {
  return counted(name, await run(cmd, args, env))
}

function counted(name: string, ok: boolean): boolean {
  addCounts(total, { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 })
  if (!ok) failures.push(name)
  return ok
}

/**
 * A check started now that runs beside the next steps, its output kept in a file: `finish()` waits for it,
 * prints what it said and counts it. The end-to-end tests leave a fifth of the cores idle (their browsers and
 * servers wait on each other), which lint and typecheck use instead of taking their own turn.
 */
function besideNext(name: string, cmd: string, args: readonly string[]): { finish: () => Promise<boolean> } {
  const log = join(reportDir, `${name}.log`)
  const out = openSync(log, 'w')
  const t0 = Date.now()
  const ended = exited(cmd, args, { stdio: ['ignore', out, out] }).then((ok) => ({
    ok,
    seconds: Math.round((Date.now() - t0) / 1000),
  }))
  return {
    async finish() {
      const { ok, seconds } = await ended
      closeSync(out)
      console.log(`\n▶ ${cmd} ${args.join(' ')} (beside the end-to-end tests)`)
      process.stdout.write(readFileSync(log, 'utf8'))
      times.push(`${stepName(args)} ${seconds} s beside`)
      return counted(name, ok)
    },
  }
}

/** Every spec file's time, from the suites' reports: the slowest are printed before the summary. */
const specTimes: SpecTime[] = []
/** Every test that failed, by name, from the suites' reports: printed next to the summary, where a log's tail shows it. */
const failedTests: string[] = []

/** A suite that writes a JSON report: its own counts are added; a crash without a report is a failure. */
async function suite(
  name: string,
  cmd: string,
  args: string[],
  report: string,
  parse: (json: unknown) => Counts,
  times: (json: unknown) => SpecTime[],
  failed: (json: unknown) => string[],
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  const ok = await run(cmd, args, env)
  let counts: Counts | undefined
  if (existsSync(report)) {
    try {
      const json: unknown = JSON.parse(readFileSync(report, 'utf8'))
      counts = parse(json)
      specTimes.push(...times(json))
      failedTests.push(...failed(json))
    } catch {
      counts = undefined
    }
  }
  if (!counts) counts = { passed: 0, failed: 1, skipped: 0 }
  if (!ok && counts.failed === 0) counts.failed = 1
  addCounts(total, counts)
  console.log(`  ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
  if (counts.failed > 0) failures.push(name)
}

/**
 * Debian's Chromium (the browser, and its headless shell that most tests run in), and the Noto fonts: the app
 * speaks Khmer, Bengali and Urdu, which a machine without them would draw as boxes (in screenshots) and lay out
 * slowly (every character sent looking for a font).
 */
const NOTO_FONTS = '/usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf'
async function ensureBrowser(): Promise<void> {
  const missing = [
    ...(existsSync(chromiumPath) ? [] : ['chromium']),
    ...(existsSync(headlessShellPath) ? [] : ['chromium-headless-shell']),
    ...(existsSync(NOTO_FONTS) ? [] : ['fonts-noto-core']),
  ]
  if (missing.length === 0) return
  console.log(`installing Debian's ${missing.join(', ')}`)
  await run('apt-get', ['update', '-qq'])
  await run('apt-get', ['install', '-y', '-qq', ...missing], { DEBIAN_FRONTEND: 'noninteractive' })
}

/** The checks that need no build, run beside the end-to-end tests or, when the build fails, on their own. */
const LINT = ['npx', ['eslint', '.', '--max-warnings=0']] as const
const TYPECHECK = ['npm', ['run', '--silent', 'typecheck']] as const

await ensureBrowser()
const vitestJson = join(reportDir, 'vitest.json')
await suite(
  'vitest (node + browser)',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  vitestJson,
  parseVitestJson,
  (json) => vitestSpecTimes(json, process.cwd()),
  (json) => vitestFailures(json, process.cwd()),
)
if (await check('build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) {
  await check('size budgets', 'npx', ['tsx', 'scripts/check-budgets.ts'])
  const beside = [besideNext('lint', ...LINT), besideNext('typecheck', ...TYPECHECK)]
  const e2eJson = join(reportDir, 'e2e.json')
  await suite(
    'end-to-end (Playwright)',
    'npx',
    ['tsx', 'scripts/e2e.ts'],
    e2eJson,
    parsePlaywrightJson,
    playwrightSpecTimes,
    playwrightFailures,
    { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson },
  )
  for (const step of beside) await step.finish()
} else {
  await check('lint', ...LINT)
  await check('typecheck', ...TYPECHECK)
  failures.push('end-to-end (not run: the build failed)')
  addCounts(total, { passed: 0, failed: 1, skipped: 0 })
}

if (specTimes.length > 0) console.log(`\nslowest specs:\n${slowestSpecs(specTimes).join('\n')}`)
console.log(`\ntook ${Math.round((Date.now() - started) / 1000)} s: ${times.join(', ')}`)
if (failures.length > 0) console.log(`\nFailed: ${failures.join(', ')}`)
if (failedTests.length > 0) console.log(`failed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`)
const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : ''
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed${skipped}`)
process.exit(total.failed > 0 ? 1 : 0)
