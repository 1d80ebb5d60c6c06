/**
 * Playwright fixtures: one stack per worker (so sandbox state never leaks between parallel workers), and
 * `baseURL` pointing at it. A spec that needs other settings starts its own with `startStack`.
 */
import { test as base, expect } from '@playwright/test'
import { type Stack, startStack } from './stack.ts'

/** An automatic fixture that provides nothing: it only resets the sandbox before each test. */
type ResetOnly = undefined

export const test = base.extend<{ sandboxReset: ResetOnly }, { stack: Stack }>({
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack()
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

export { expect }
