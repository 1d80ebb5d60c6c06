import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { lingui } from '@lingui/vite-plugin'
import { playwright } from '@vitest/browser-playwright'
import { chromiumArgs, testChromiumPath } from './scripts/chromium.ts'

export default defineConfig({
  plugins: [react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui()],
  test: {
    // Three at a time on a two-core machine: many server tests wait on timers, child processes and the
    // database. Two left a core idle two fifths of the time (129 s for the whole run, 109 s with three).
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/server/**/*.test.ts',
            'src/sandbox/**/*.test.ts',
            'src/core/**/*.node.test.ts',
            'src/shared/**/*.node.test.ts',
            'scripts/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // The server test files share their processes: each process creates the embedded database's empty
          // cluster once (seconds of CPU) and loads the server's modules once, instead of once per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [
            'src/app/**/*.test.{ts,tsx}',
            'src/features/**/*.test.{ts,tsx}',
            'src/i18n/**/*.test.{ts,tsx}',
            'src/worker/**/*.test.ts',
            'src/sw/**/*.test.ts',
            'src/core/**/*.test.{ts,tsx}',
            'src/device/**/*.test.{ts,tsx}',
            'src/shared/**/*.test.{ts,tsx}',
          ],
          exclude: ['src/core/**/*.node.test.ts', 'src/shared/**/*.node.test.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: testChromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
})
