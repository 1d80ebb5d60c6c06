/**
 * `npm run lockfile:complete`: adds lock entries for optional platform packages that npm could not resolve
 * (the registry mirror this project installs from carries only some platforms' builds, and npm then leaves
 * them out of the lock, after which `npm ci` refuses the lock as out of sync). Each added entry carries its
 * os / cpu / libc so npm skips it on other machines without fetching it. Run it after every `npm install`.
 */
import { readFileSync, writeFileSync } from 'node:fs'

interface LockEntry {
  version?: string
  optional?: boolean
  dev?: boolean
  os?: string[]
  cpu?: string[]
  libc?: string[]
  optionalDependencies?: Record<string, string>
}
interface Lock {
  packages: Record<string, LockEntry>
}

const OSES = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'sunos', 'aix', 'openharmony']
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 's390x', 'ppc64', 'loong64', 'mips64el']

/** Where npm would find `name` from the package at `location`: its own folder, then each parent's. */
export function resolveLocation(packages: Lock['packages'], location: string, name: string): string | undefined {
  let base = location
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`
    if (candidate in packages) return candidate
    if (!base) return undefined
    const cut = base.lastIndexOf('/node_modules/')
    base = cut >= 0 ? base.slice(0, cut) : ''
  }
}

export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> {
  const parts = name.split('/').pop()!.split('-')
  const os = parts.find((p) => OSES.includes(p))
  const cpu = parts.includes('wasm32') ? 'wasm32' : parts.find((p) => CPUS.includes(p))
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc: [libc] } : {}) }
}

/** Returns the names it added; the lock is changed in place. */
export function completeLock(lock: Lock): string[] {
  const added: string[] = []
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolveLocation(lock.packages, location, name)) continue
      lock.packages[`node_modules/${name}`] = {
        version,
        optional: true,
        ...(entry.dev ? { dev: true } : {}),
        ...platformOf(name),
      }
      added.push(`${name}@${version}`)
    }
  }
  const sorted = Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0))
  lock.packages = Object.fromEntries(sorted)
  return added
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = 'package-lock.json'
  const lock = JSON.parse(readFileSync(path, 'utf8')) as Lock
  const added = completeLock(lock)
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
  console.log(added.length ? `added ${added.length} optional platform entries` : 'the lock is complete')
}
