import { describe, expect, it } from 'vitest'
import {
  parsePlaywrightJson,
  parseVitestJson,
  playwrightFailures,
  playwrightSpecTimes,
  slowestSpecs,
  vitestFailures,
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
  it('names each failed test of both reports, and a vitest file that did not load', () => {
    expect(
      vitestFailures(
        {
          testResults: [
            {
              name: '/repo/src/a.test.ts',
              status: 'failed',
              assertionResults: [
                { fullName: 'a passes', status: 'passed' },
                { fullName: 'a fails', status: 'failed' },
              ],
            },
            {
              name: '/repo/src/b.test.ts',
              status: 'failed',
              message: 'Cannot find module x\nstack',
              assertionResults: [],
            },
            {
              name: '/repo/src/c.test.ts',
              status: 'passed',
              assertionResults: [{ fullName: 'c', status: 'passed' }],
            },
          ],
        },
        '/repo',
      ),
    ).toEqual(['src/a.test.ts › a fails', 'src/b.test.ts (did not run: Cannot find module x)'])
    expect(
      playwrightFailures({
        suites: [
          {
            file: 'inbox.spec.ts',
            specs: [
              { title: 'fine', line: 3, tests: [{ status: 'expected' }] },
              { title: 'broken', line: 9, tests: [{ status: 'unexpected' }] },
            ],
            suites: [
              { title: 'in Urdu', specs: [{ title: 'flaky', line: 20, tests: [{ status: 'flaky' }] }] },
            ],
          },
        ],
      }),
    ).toEqual(['tests/e2e/inbox.spec.ts:9 › broken', 'tests/e2e/inbox.spec.ts:20 › flaky'])
  })
})
