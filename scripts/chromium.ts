/** Debian's Chromium, started the way a closed network and a root user need it. */
import { existsSync } from 'node:fs'

/** The browser as people run it (package `chromium`): Lighthouse and the benchmarks measure with it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * The same Chromium built for headless use only (package `chromium-headless-shell`, Playwright's own choice
 * for headless runs): the same Blink and V8 without the desktop browser around them. The tests run in it,
 * a fifth less CPU for the same specs; where it is missing they run in the full one.
 */
export const headlessShellPath =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell'

/** The browser the tests launch: the headless shell when it is installed (`npm test` installs it). */
export const testChromiumPath = existsSync(headlessShellPath) ? headlessShellPath : chromiumPath

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
]
