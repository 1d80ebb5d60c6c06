/**
 * One writer per embedded database: a second store on the same DATA_DIR, in this process or another, is
 * refused with one sentence; a lock left by a process that no longer runs is taken over.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { freePort } from '../../../tests/e2e/support/stack.ts'
import { migrate } from './migrate.ts'
import { type Store, openStore } from './store.ts'

const LOCK_FILE = 'pglite.lock'

interface Run {
  code: number | null
  stderr: string
}

/**
 * Runs a TypeScript entry in Node with tsx's loader (one process, not tsx's launcher and a Node under it); a
 * process still running after `timeoutMs` is stopped and reported.
 */
function run(args: string[], env: Record<string, string>, timeoutMs = 45_000): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => {
      stderr += '\n[still running: stopped by the test]'
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      done({ code, stderr })
    })
  })
}

const sentence = (dir: string) =>
  new RegExp(`DATA_DIR ${resolve(dir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*pid ${process.pid}`)

// Each test opens real PGlite folders or starts processes: slow on a busy machine.
describe('the embedded database folder', { timeout: 90_000 }, () => {
  let dir: string
  let held: Store | undefined
  // One folder whose database is created once: each test's folder starts as a copy of it. Creating the
  // embedded PostgreSQL (its initdb) is seconds of CPU, and no test here is about it.
  let created: string
  beforeAll(async () => {
    created = mkdtempSync(join(tmpdir(), 'pagecast-lock-created-'))
    await (await openStore({ dataDir: created })).close()
  })
  afterAll(() => rmSync(created, { recursive: true, force: true }))
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-lock-'))
    cpSync(created, dir, { recursive: true })
  })
  afterEach(async () => {
    await held?.close()
    held = undefined
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a second store on the same DATA_DIR with a sentence naming it and the holder', async () => {
    held = await openStore({ dataDir: dir })
    await expect(openStore({ dataDir: dir })).rejects.toThrow(sentence(dir))
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number; host: string }
    expect(lock).toMatchObject({ pid: process.pid, host: hostname() })
  })

  it('is free again once the store is closed', async () => {
    const first = await openStore({ dataDir: dir })
    await first.close()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    held = await openStore({ dataDir: dir })
  })

  it('takes over a lock left by a process that no longer runs on this host', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname() }))
    held = await openStore({ dataDir: dir })
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid })
  })

  it('takes over a lock with its own pid that it does not hold (a restart that got the same pid)', async () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname() }))
    held = await openStore({ dataDir: dir })
    await expect(openStore({ dataDir: dir })).rejects.toThrow(sentence(dir))
  })

  it('keeps a lock held by a process on another host, and says how to free it', async () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: 'elsewhere.example' }))
    await expect(openStore({ dataDir: dir })).rejects.toThrow(
      /pid 1 on elsewhere\.example.*if it no longer runs, delete .*pglite\.lock/,
    )
  })

  it('lets any number of in-memory stores open, each a database of its own that starts empty', async () => {
    const a = await openStore({ dataDir: 'memory://' })
    const b = await openStore({ dataDir: 'memory://' })
    await a.exec('CREATE TABLE kept (v int); INSERT INTO kept VALUES (1)')
    // The later ones are copies of the first one's empty cluster: nothing written since is in them.
    const c = await openStore({ dataDir: 'memory://' })
    for (const other of [b, c])
      expect(await other.query(`SELECT to_regclass('kept') AS t`)).toEqual([{ t: null }])
    expect(await a.query('SELECT v FROM kept')).toEqual([{ v: 1 }])
    await Promise.all([a.close(), b.close(), c.close()])
  })

  it('is released when the process exits without closing the store', async () => {
    const script = `import { openStore } from ${JSON.stringify(resolve('src/server/db/store.ts'))}
await openStore({ dataDir: ${JSON.stringify(dir)} })
process.exit(0)`
    const r = await run(['--input-type=module', '-e', script], {})
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })

  it('stops a second server on the same DATA_DIR with one sentence and no stack trace', async () => {
    held = await openStore({ dataDir: dir })
    const r = await run(['src/server/main.ts'], {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      STATIC_DIR: join(dir, 'no-app'),
    })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(sentence(dir))
    expect(r.stderr).not.toMatch(/^\s+at /m)
  })

  it('refuses to publish terms while the server holds DATA_DIR', async () => {
    held = await openStore({ dataDir: dir })
    await migrate(held)
    const file = join(dir, 'terms.md')
    writeFileSync(file, '# New terms\n')
    const r = await run(['src/server/cli/terms.ts', 'publish', file], { DATA_DIR: dir })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      new RegExp(`^The server is running on DATA_DIR .*\\(pid ${process.pid}\\): stop it first`),
    )
    expect(r.stderr).not.toMatch(/^\s+at /m)
    expect(await held.query('SELECT id FROM terms')).toHaveLength(1)
  })
})
