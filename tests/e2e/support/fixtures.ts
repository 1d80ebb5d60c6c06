/**
 * Playwright fixtures: one stack per worker (so sandbox state never leaks between parallel workers), and
 * `baseURL` pointing at it, with the sandbox reset before each test. `stackTest(env)` gives the same with
 * other settings (a policy, the pacing); a spec that needs a stack per test starts its own with `startStack`.
 */
import { test as base, expect } from '@playwright/test'
import { type Stack, startStack } from './stack.ts'

/** An automatic fixture that provides nothing: it only resets the sandbox before each test. */
type ResetOnly = undefined

export function stackTest(env: Record<string, string> = {}) {
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
