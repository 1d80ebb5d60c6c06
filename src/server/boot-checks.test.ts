import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { type Server, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RUNTIME_MAJOR, StartupError, checkStartup, runtimeFailure, startupFailure } from './boot-checks.ts'
import { ConfigError, loadConfig } from './config.ts'

const root = join(import.meta.dirname, '..', '..')
let dir: string
let busy: Server
let busyPort: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagecast-boot-'))
  writeFileSync(join(dir, 'a-file'), '')
  busy = createServer()
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
  busyPort = (busy.address() as { port: number }).port
})

afterAll(async () => {
  await new Promise((done) => busy.close(done))
  rmSync(dir, { recursive: true, force: true })
})

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

async function failure(check: Promise<void>): Promise<string> {
  const err = await check.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(StartupError)
  return (err as Error).message
}

function oneSentence(message: string) {
  expect(message).not.toContain('\n')
  expect(message).not.toMatch(/\bat .*:\d+:\d+/)
  expect(message.trim().endsWith('.')).toBe(true)
}

const base = { HOST: '127.0.0.1', PORT: 0, DATA_DIR: 'memory://', DATABASE_URL: undefined }

describe('start-up checks', () => {
  it('refuses a malformed DATABASE_URL in one sentence naming it', () => {
    for (const url of ['postgres://', 'mysql://db/x', 'postgres://user@:5432/db']) {
      let message = ''
      try {
        loadConfig({ DATABASE_URL: url })
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError)
        message = (err as Error).message
      }
      expect(message).toMatch(/DATABASE_URL/)
      oneSentence(message)
    }
  })

  it('names DATABASE_URL when nothing answers at its address, without waiting long', async () => {
    const port = await closedPort()
    const message = await failure(
      checkStartup({ ...base, DATABASE_URL: `postgres://u:p@127.0.0.1:${port}/pagecast` }, 2_000),
    )
    expect(message).toMatch(/^DATABASE_URL points at 127\.0\.0\.1:\d+, where no database accepts connections/)
    oneSentence(message)
  })

  it('names PORT when another program holds the port', async () => {
    const message = await failure(checkStartup({ ...base, PORT: busyPort }))
    expect(message).toBe(
      `PORT ${busyPort} is already in use on 127.0.0.1: stop the program using it or set PORT to a free port.`,
    )
  })

  it('names DATA_DIR when it is a file, or when a file stands in its path', async () => {
    const file = join(dir, 'a-file')
    expect(await failure(checkStartup({ ...base, DATA_DIR: file }))).toMatch(
      /^DATA_DIR .*a-file is a file, not a folder/,
    )
    const under = await failure(checkStartup({ ...base, DATA_DIR: join(file, 'data') }))
    expect(under).toMatch(/^DATA_DIR .* cannot be created because part of its path is a file/)
    oneSentence(under)
  })

  it('runs on the Node.js LTS that npm installs, and names it to a server started with an older one', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(RUNTIME_MAJOR)
    expect(runtimeFailure(process.version)).toBeUndefined()
    expect(runtimeFailure('v20.20.2')).toBe(
      'Pagecast runs on Node.js 24 LTS and this is v20.20.2: start it with npm start (or npx), which uses the Node.js 24 that npm install put in node_modules.',
    )
    expect(runtimeFailure('v26.1.0')).toBeUndefined()
  })

  it('accepts a free port and a writable data folder, creating it when missing', async () => {
    await expect(checkStartup({ ...base, DATA_DIR: join(dir, 'new', 'data') })).resolves.toBeUndefined()
  })

  it('turns failures met later in the start into the same sentences', () => {
    const config = { ...base, PORT: 8080, DATA_DIR: './data' }
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'listen' })
    expect(startupFailure(inUse, config)).toMatch(/^PORT 8080 is already in use/)
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES' })
    expect(startupFailure(denied, config)).toMatch(/^DATA_DIR \.\/data is not writable by this user/)
    expect(startupFailure(new TypeError('a bug'), config)).toBeUndefined()
  })
})

/** Runs `npm start`'s script and returns its exit code and output. */
function start(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('exit', (code) => done({ code, stdout, stderr }))
  })
}

describe('npm start with a bad setting', () => {
  const cases: [string, () => Record<string, string>, RegExp][] = [
    [
      'a malformed DATABASE_URL',
      () => ({ DATABASE_URL: 'postgres://' }),
      /^Invalid configuration: DATABASE_URL /,
    ],
    [
      'a DATA_DIR that is a file',
      () => ({ DATA_DIR: join(dir, 'a-file'), PORT: '0' }),
      /^DATA_DIR .* is a file/,
    ],
    [
      'a port in use',
      () => ({ HOST: '127.0.0.1', PORT: String(busyPort), DATA_DIR: join(dir, 'd') }),
      /^PORT \d+ is already in use/,
    ],
  ]
  for (const [name, env, sentence] of cases) {
    it(`stops before building, with one sentence and exit code 1, on ${name}`, async () => {
      const run = await start(env())
      expect(run.code).toBe(1)
      const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.includes('npm warn'))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(sentence)
      expect(run.stdout).not.toContain('Building')
    }, 30_000)
  }
})
