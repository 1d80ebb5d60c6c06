/** Debian's Chromium started headless with a DevTools port, for Lighthouse and Playwright to share. */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromiumArgs, chromiumPath } from '../chromium.ts'
import { freePort } from '../../tests/e2e/support/stack.ts'

export interface DebugChromium {
  port: number
  stop(): Promise<void>
}

export async function launchDebugChromium(): Promise<DebugChromium> {
  const port = await freePort()
  const profile = mkdtempSync(join(tmpdir(), 'pagecast-audit-'))
  const child: ChildProcess = spawn(
    chromiumPath,
    [
      ...chromiumArgs,
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  )
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`chromium exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('chromium did not open its DevTools port in time')
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    port,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
