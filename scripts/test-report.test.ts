import { describe, expect, it } from 'vitest'
import {
  parsePlaywrightJson,
  parseVitestJson,
  playwrightSpecTimes,
  slowestSpecs,
  vitestSpecTimes,
} from './test-report.ts'

describe('test reports', () => {
  it('counts a vitest file that failed to load as a failure', () => {
    expect(
      parseVitestJson({
        numPassedTests: 3,
        numFailedTests: 0,
        numPendingTests: 1,
        numTodoTests: 0,
        numFailedTestSuites: 1,
      }),
    ).toEqual({ passed: 3, failed: 1, skipped: 1 })
  })
  it('counts a global error as a failure', () => {
    expect(
      parsePlaywrightJson({ stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 0 }, errors: [{}] }),
    ).toEqual({ passed: 2, failed: 1, skipped: 0 })
  })
  it('counts a flaky playwright test, one that passed only on another attempt, as failed', () => {
    expect(parsePlaywrightJson({ stats: { expected: 2, unexpected: 0, flaky: 1, skipped: 0 } })).toEqual({
      passed: 2,
      failed: 1,
      skipped: 0,
    })
  })
  it('lists the slowest spec files of both reports, slowest first', () => {
    const vitest = vitestSpecTimes(
      {
        testResults: [
          { name: '/repo/src/a.test.ts', startTime: 1_000, endTime: 3_500 },
          { name: '/repo/src/b.test.ts', startTime: 1_000, endTime: 1_200 },
        ],
      },
      '/repo',
    )
    const e2e = playwrightSpecTimes({
      suites: [
        {
          file: 'inbox.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 4_000 }, { duration: 1_000 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 2_000 }] }] }] }],
        },
      ],
    })
    expect(slowestSpecs([...vitest, ...e2e], 2)).toEqual([
      '    7.0 s  tests/e2e/inbox.spec.ts',
      '    2.5 s  src/a.test.ts',
    ])
  })
})
