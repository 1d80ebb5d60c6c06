/** Runs the in-browser half of the bulk benchmark (real Chromium, real IndexedDB) for bulk.bench.ts. */
import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'

export default defineConfig({
  test: {
    include: ['tests/bench/bulk-browser.bench-case.ts'],
    testTimeout: 120_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
  },
})
