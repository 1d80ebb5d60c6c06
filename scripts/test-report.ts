/** Reading the JSON reports of Vitest and Playwright into one set of counts. */
export interface Counts {
  passed: number
  failed: number
  skipped: number
}

export function addCounts(into: Counts, add: Counts): void {
  into.passed += add.passed
  into.failed += add.failed
  into.skipped += add.skipped
}

interface VitestJson {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
  numFailedTestSuites: number
}

/** Vitest's JSON reporter; a file that failed to load counts as one failure. */
export function parseVitestJson(json: unknown): Counts {
  const j = json as VitestJson
  const failedSuitesWithoutTests = j.numFailedTests === 0 ? j.numFailedTestSuites : 0
  return {
    passed: j.numPassedTests,
    failed: j.numFailedTests + failedSuitesWithoutTests,
    skipped: j.numPendingTests + j.numTodoTests,
  }
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  errors?: unknown[]
}

/**
 * Playwright's JSON reporter. A flaky test (one that passed only on another attempt) counts as failed: the
 * suite runs without retries, and a test that needs one is a defect.
 */
export function parsePlaywrightJson(json: unknown): Counts {
  const { stats, errors = [] } = json as PlaywrightJson
  const failed = stats.unexpected + stats.flaky
  return {
    passed: stats.expected,
    failed: failed + (errors.length > 0 && failed === 0 ? 1 : 0),
    skipped: stats.skipped,
  }
}

/** One spec file and the time its tests took, added up (every attempt included). */
export interface SpecTime {
  file: string
  seconds: number
}

interface VitestFileJson {
  testResults?: {
    name: string
    startTime?: number
    endTime?: number
    status?: string
    message?: string
    assertionResults?: { fullName?: string; title?: string; status?: string }[]
  }[]
}

/** A file's path relative to the repository (Vitest reports absolute paths). */
function relativeTo(root: string, name: string): string {
  return name.startsWith(root) ? name.slice(root.length).replace(/^[\\/]/, '') : name
}

/** Vitest's JSON reporter: each file's time from its start to its end. */
export function vitestSpecTimes(json: unknown, root = ''): SpecTime[] {
  const { testResults = [] } = json as VitestFileJson
  return testResults.map((r) => ({
    file: relativeTo(root, r.name),
    seconds: Math.max(0, ((r.endTime ?? 0) - (r.startTime ?? 0)) / 1000),
  }))
}

interface PlaywrightSpecJson {
  title?: string
  line?: number
  file?: string
  tests?: { status?: string; results?: { duration?: number }[] }[]
}

interface PlaywrightSuiteJson {
  file?: string
  specs?: PlaywrightSpecJson[]
  suites?: PlaywrightSuiteJson[]
}

/** Every spec of Playwright's JSON report with the file it is in (a nested suite inherits its file). */
function eachPlaywrightSpec(json: unknown, visit: (spec: PlaywrightSpecJson, file: string) => void): void {
  const walk = (suite: PlaywrightSuiteJson, file: string | undefined) => {
    for (const spec of suite.specs ?? []) visit(spec, spec.file ?? suite.file ?? file ?? '?')
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file)
  }
  for (const suite of (json as PlaywrightSuiteJson).suites ?? []) walk(suite, suite.file)
}

/** Playwright's JSON reporter: each spec file's tests' durations added up, every attempt counted. */
export function playwrightSpecTimes(json: unknown): SpecTime[] {
  const byFile = new Map<string, number>()
  eachPlaywrightSpec(json, (spec, file) => {
    const ms = (spec.tests ?? [])
      .flatMap((t) => t.results ?? [])
      .reduce((sum, r) => sum + (r.duration ?? 0), 0)
    byFile.set(file, (byFile.get(file) ?? 0) + ms)
  })
  return [...byFile].map(([file, ms]) => ({ file: `tests/e2e/${file}`, seconds: ms / 1000 }))
}

/** The `n` slowest specs, slowest first, as printable lines. */
export function slowestSpecs(times: readonly SpecTime[], n = 10): string[] {
  return [...times]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n)
    .map((t) => `${t.seconds.toFixed(1).padStart(7)} s  ${t.file}`)
}

/** Vitest's JSON reporter: each failed test as `file › name`, and each file that failed to load. */
export function vitestFailures(json: unknown, root = ''): string[] {
  const { testResults = [] } = json as VitestFileJson
  return testResults.flatMap((file) => {
    const name = relativeTo(root, file.name)
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
    if (failed.length > 0) return failed.map((t) => `${name} › ${t.fullName ?? t.title ?? '?'}`)
    return file.status === 'failed'
      ? [`${name} (did not run: ${file.message?.split('\n')[0] ?? 'failed'})`]
      : []
  })
}

/**
 * Playwright's JSON reporter: each test that did not pass as expected (failed, timed out, or passed only on
 * another attempt) as `file:line › title`.
 */
export function playwrightFailures(json: unknown): string[] {
  const out: string[] = []
  eachPlaywrightSpec(json, (spec, file) => {
    if ((spec.tests ?? []).some((t) => t.status === 'unexpected' || t.status === 'flaky'))
      out.push(`tests/e2e/${file}:${spec.line ?? '?'} › ${spec.title ?? '?'}`)
  })
  return out
}
