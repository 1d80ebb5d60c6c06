/** The API and the sandbox together, in Node: `npx vitest run --config tests/integration/vitest.config.ts`. */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'integration',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
