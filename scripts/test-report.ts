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

/** Playwright's JSON reporter: flaky tests passed on retry and count as passed. */
export function parsePlaywrightJson(json: unknown): Counts {
  const { stats, errors = [] } = json as PlaywrightJson
  return {
    passed: stats.expected + stats.flaky,
    failed: stats.unexpected + (errors.length > 0 && stats.unexpected === 0 ? 1 : 0),
    skipped: stats.skipped,
  }
}
