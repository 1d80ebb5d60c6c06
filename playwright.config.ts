import { defineConfig } from '@playwright/test'
import { chromiumArgs, testChromiumPath } from './scripts/chromium.ts'

/**
 * The specs whose tests take longest (they follow a bulk send at its real pacing, or walk a whole day), run
 * first: started last, one of them would keep one worker busy while the others sit idle at the end of the run.
 * Playwright queues the projects in this order, each project's specs in file order.
 */
const LONG_SPECS = [
  'phone-journey',
  'send-views',
  'bulk-resilience',
  'marketing',
  'live-inbox',
  'bulk-pacing',
  'bulk-token-storm',
  'bulk-storage',
  'server-continuation',
].map((name) => `**/${name}.spec.ts`)

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: './tests/artifacts/e2e-results',
  // One migrated database folder that each stack starts from (tests/e2e/support/global-setup.ts).
  globalSetup: './tests/e2e/support/global-setup.ts',
  fullyParallel: false,
  // Four browsers at a time on a two-core machine: many tests spend their time waiting (pacing, the stream,
  // a sandbox's webhooks) rather than computing. Three left a fifth of the cores idle (381 s against 342 s).
  workers: Number(process.env.E2E_WORKERS ?? 4),
  // No retries anywhere: a test that fails once is a defect to fix, not to run again.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'tests/artifacts/reports/e2e.json' }],
  ],
  projects: [
    { name: 'long', testMatch: LONG_SPECS },
    { name: 'short', testIgnore: LONG_SPECS },
  ],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: testChromiumPath, args: chromiumArgs },
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    // Traces only when asked for (E2E_TRACE=1 keeps a failed test's: every action with the page's DOM as it
    // was, the network and the console). Recording them for every test cost a tenth of the run's CPU, and a
    // failure still leaves its message, its screenshot and the page's accessibility tree.
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false, snapshots: true } : 'off',
    screenshot: 'only-on-failure',
    // No service worker unless a spec asks for one (`test.use({ serviceWorkers: 'allow' })`: the offline,
    // install, update, push and live specs, and the phone journey). Each fresh context would otherwise install
    // it and precache the whole build (127 files): about a seventh of the run's CPU, spent again in every test.
    serviceWorkers: 'block',
  },
})
