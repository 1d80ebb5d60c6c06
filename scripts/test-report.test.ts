import { describe, expect, it } from 'vitest'
import { parsePlaywrightJson, parseVitestJson } from './test-report.ts'

describe('test reports', () => {
  it('counts a vitest file that failed to load as a failure', () => {
    expect(
      parseVitestJson({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0, numFailedTestSuites: 1 }),
    ).toEqual({ passed: 3, failed: 1, skipped: 1 })
  })
  it('counts flaky playwright tests as passed and global errors as a failure', () => {
    expect(parsePlaywrightJson({ stats: { expected: 2, unexpected: 0, flaky: 1, skipped: 0 }, errors: [{}] })).toEqual({
      passed: 3,
      failed: 1,
      skipped: 0,
    })
  })
})
