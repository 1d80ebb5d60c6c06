/**
 * Starts the built product (API + sandbox + static app) on a free port with a throwaway data folder,
 * as `npm start` would, and stops it afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A data folder whose database is already created and migrated (`tests/e2e/support/global-setup.ts` makes one
 * per run and names it here): each stack's throwaway folder starts as a copy of it. Creating the embedded
 * PostgreSQL is most of a stack's start, seconds of CPU that every stack would otherwise spend again.
 */
export const TEMPLATE_DATA_DIR = 'PAGECAST_E2E_TEMPLATE_DATA_DIR'

export interface Stack {
  url: string
  port: number
  dataDir: string
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

export interface StackOptions {
  /**
   * Run the server at a lower CPU priority (`nice`). A measurement of the app in the browser (Lighthouse)
   * uses it: on a small machine the server's own work would otherwise be counted as the page's.
   */
  lowPriority?: boolean
}

export async function startStack(
  env: Record<string, string> = {},
  options: StackOptions = {},
): Promise<Stack> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'pagecast-e2e-'))
  const template = process.env[TEMPLATE_DATA_DIR]
  if (template && !env.DATABASE_URL) cpSync(template, dataDir, { recursive: true })
  // Node itself with tsx's loader: `npx tsx` would start npm and then tsx's own launcher before it, about half
  // a second of CPU on every stack.
  const command = [process.execPath, '--import', 'tsx', 'src/stack.ts']
  if (options.lowPriority) command.unshift('nice', '-n', '15')
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SANDBOX: 'true',
      SANDBOX_LIVE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const url = `http://localhost:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the stack exited early:\n${output}`)
    try {
      const res = await fetch(`${url}/api/v2/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the stack did not start in time:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    port,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r))
        process.kill(-child.pid, 'SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
