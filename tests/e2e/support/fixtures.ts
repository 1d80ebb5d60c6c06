/**
 * Playwright fixtures: one stack per worker (so sandbox state never leaks between parallel workers), and
 * `baseURL` pointing at it, with the sandbox reset before each test. `stackTest(env)` gives the same with
 * other settings (a policy, the pacing); a spec that needs a stack per test starts its own with `startStack`.
 *
 * Specs asking for the same settings share a worker and its stack: Playwright gives a spec a worker of its
 * own whenever its worker fixtures are other functions, so `stackTest` hands out one fixture set per
 * settings. The sandbox is reset before each test, the API's database is not: jobs, subscribers and the
 * allowance stay from the earlier specs on that stack. Tests that cannot start from what others leave name a
 * `group` of their own (a stack shared only within it), or start a stack per test.
 */
import { test as base, expect } from '@playwright/test'
import { type Stack, startStack } from './stack.ts'

/** An automatic fixture that provides nothing: it only resets the sandbox before each test. */
type ResetOnly = undefined

const bySettings = new Map<string, ReturnType<typeof extendWith>>()

/** The test function with a stack started with `env`: the same one for the same settings and group. */
export function stackTest(env: Record<string, string> = {}, group = '') {
  const settings = Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const key = JSON.stringify([group, settings])
  let made = bySettings.get(key)
  if (!made) {
    made = extendWith(env)
    bySettings.set(key, made)
  }
  return made
}

function extendWith(env: Record<string, string>) {
  return base.extend<{ sandboxReset: ResetOnly }, { stack: Stack }>({
    stack: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const stack = await startStack(env)
        await use(stack)
        await stack.stop()
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    baseURL: async ({ stack }, use) => use(stack.url),
    sandboxReset: [
      async ({ stack }, use) => {
        await fetch(`${stack.url}/sandbox/reset`, { method: 'POST' }).catch(() => undefined)
        await use(undefined)
      },
      { auto: true },
    ],
  })
}

export const test = stackTest()

export { expect }
