/**
 * What must hold before the server is worth building and starting: the database answers, the port is free,
 * the data folder can be written. Each failure is one sentence naming the setting to change, printed instead
 * of a stack trace; every check gives up after a bounded wait, so a start never hangs on a dead host.
 */
import { constants } from 'node:fs'
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import type { ServerConfig } from './config.ts'
import { probeDatabase } from './db/probe.ts'

/** A start-up failure the user can fix: its message is one sentence naming the setting. */
export class StartupError extends Error {}

/** How long a database gets to answer before the start gives up on it. */
export const DATABASE_CHECK_TIMEOUT_MS = 5_000

type Checked = Pick<ServerConfig, 'DATABASE_URL' | 'DATA_DIR' | 'HOST' | 'PORT'>

/** The Node.js major the product runs and is tested on: the LTS line the project installs as a dependency. */
export const RUNTIME_MAJOR = 24

/**
 * The runtime's sentence, when it is not the project's: npm's scripts run on the Node.js in node_modules, so
 * only a server started by hand with another one gets here.
 */
export function runtimeFailure(version: string): string | undefined {
  const major = Number(/^v(\d+)\./.exec(version)?.[1])
  if (major >= RUNTIME_MAJOR) return undefined
  return `Pagecast runs on Node.js ${RUNTIME_MAJOR} LTS and this is ${version}: start it with npm start (or npx), which uses the Node.js ${RUNTIME_MAJOR} that npm install put in node_modules.`
}

export async function checkStartup(config: Checked, timeoutMs = DATABASE_CHECK_TIMEOUT_MS): Promise<void> {
  const runtime = runtimeFailure(process.version)
  if (runtime) throw new StartupError(runtime)
  if (config.DATABASE_URL) await checkDatabase(config.DATABASE_URL, timeoutMs)
  else await checkDataDir(config.DATA_DIR)
  await checkPort(config.HOST, config.PORT)
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function where(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || '5432'}`
  } catch {
    return 'its address'
  }
}

/** The sentence for a database that cannot be used. */
export function databaseFailure(url: string, err: unknown): string {
  const at = where(url)
  switch (errorCode(err)) {
    case 'ECONNREFUSED':
      return `DATABASE_URL points at ${at}, where no database accepts connections: start PostgreSQL there or correct DATABASE_URL.`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DATABASE_URL names the host ${at.split(':')[0]}, which cannot be found: correct DATABASE_URL.`
    case 'ETIMEDOUT':
    case 'TIMEOUT':
      return `DATABASE_URL points at ${at}, which did not answer within ${DATABASE_CHECK_TIMEOUT_MS / 1000} s: check the host and port in DATABASE_URL.`
    case '28P01':
    case '28000':
      return `DATABASE_URL's user name or password was refused by the database at ${at}: correct DATABASE_URL.`
    case '3D000':
      return `DATABASE_URL names a database that does not exist at ${at}: create it or correct DATABASE_URL.`
    default: {
      const reason = err instanceof Error ? err.message.split('\n')[0]?.replace(/\.$/, '') : String(err)
      return `DATABASE_URL points at ${at}, which cannot be used (${reason}): correct DATABASE_URL.`
    }
  }
}

async function checkDatabase(url: string, timeoutMs: number): Promise<void> {
  try {
    await probeDatabase(url, timeoutMs)
  } catch (err) {
    const message = /timeout/i.test(err instanceof Error ? err.message : '')
      ? databaseFailure(url, { code: 'TIMEOUT' })
      : databaseFailure(url, err)
    throw new StartupError(message)
  }
}

/** The sentence for a data folder that cannot hold the embedded database. */
export function dataDirFailure(dir: string, err: unknown): string {
  switch (errorCode(err)) {
    case 'NOT_A_DIRECTORY':
      return `DATA_DIR ${dir} is a file, not a folder: point DATA_DIR at a folder (it is created when missing).`
    case 'ENOTDIR':
      return `DATA_DIR ${dir} cannot be created because part of its path is a file: point DATA_DIR at a folder.`
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `DATA_DIR ${dir} is not writable by this user: make it writable or point DATA_DIR at another folder.`
    default: {
      const reason = err instanceof Error ? err.message.split('\n')[0]?.replace(/\.$/, '') : String(err)
      return `DATA_DIR ${dir} cannot be used (${reason}): point DATA_DIR at a writable folder.`
    }
  }
}

async function checkDataDir(dir: string): Promise<void> {
  if (dir.startsWith('memory://')) return
  const path = resolve(dir)
  try {
    const found = await stat(path).catch((err: unknown) => {
      if (errorCode(err) === 'ENOENT') return undefined
      throw err
    })
    if (found && !found.isDirectory())
      throw Object.assign(new Error('not a folder'), { code: 'NOT_A_DIRECTORY' })
    if (!found) await mkdir(path, { recursive: true })
    await access(path, constants.W_OK)
    // access() trusts the mode bits; a read-only mount or an ACL only shows on a real write.
    const probe = resolve(path, `.write-check-${process.pid}`)
    await writeFile(probe, '')
    await rm(probe, { force: true })
  } catch (err) {
    throw new StartupError(dataDirFailure(dir, err))
  }
}

/** The sentence for a port the server cannot listen on. */
export function portFailure(host: string, port: number, err: unknown): string {
  switch (errorCode(err)) {
    case 'EADDRINUSE':
      return `PORT ${port} is already in use on ${host}: stop the program using it or set PORT to a free port.`
    case 'EACCES':
      return `PORT ${port} needs privileges this user does not have: set PORT to 1024 or above.`
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${host} is not an address of this machine: correct HOST (0.0.0.0 listens on every address).`
    default: {
      const reason = err instanceof Error ? err.message.split('\n')[0]?.replace(/\.$/, '') : String(err)
      return `PORT ${port} on HOST ${host} cannot be used (${reason}): set PORT or HOST.`
    }
  }
}

async function checkPort(host: string, port: number): Promise<void> {
  // Port 0 asks the system for any free port: nothing to check.
  if (port === 0) return
  await new Promise<void>((done, fail) => {
    const server = createServer()
    server.once('error', (err) => fail(new StartupError(portFailure(host, port, err))))
    server.listen({ host, port, exclusive: true }, () => server.close(() => done()))
  })
}

/**
 * The sentence for a failure met while starting (after the checks passed: another program took the port,
 * the database went away), or undefined when the error is not one the user can fix by a setting.
 */
export function startupFailure(err: unknown, config: Checked): string | undefined {
  if (err instanceof StartupError) return err.message
  const code = errorCode(err)
  const syscall = (err as { syscall?: unknown } | null)?.syscall
  if (syscall === 'listen' || code === 'EADDRINUSE') return portFailure(config.HOST, config.PORT, err)
  if (
    config.DATABASE_URL &&
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', '28P01', '28000', '3D000'].includes(code ?? '')
  )
    return databaseFailure(config.DATABASE_URL, err)
  if (!config.DATABASE_URL && ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR'].includes(code ?? ''))
    return dataDirFailure(config.DATA_DIR, err)
  return undefined
}
