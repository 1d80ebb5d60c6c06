import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { completeLock, platformOf } from './complete-lockfile.ts'

describe('the lock file', () => {
  it('names every optional platform package, so npm ci accepts it on a clean machine', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
    expect(completeLock(lock)).toEqual([])
  })

  it('adds a missing optional package with the platform it is built for', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/rollup': { version: '4.0.0', dev: true, optionalDependencies: { '@rollup/rollup-linux-x64-musl': '4.0.0' } },
      },
    }
    expect(completeLock(lock)).toEqual(['@rollup/rollup-linux-x64-musl@4.0.0'])
    expect(lock.packages).toHaveProperty(['node_modules/@rollup/rollup-linux-x64-musl'], {
      version: '4.0.0',
      optional: true,
      dev: true,
      os: ['linux'],
      cpu: ['x64'],
      libc: ['musl'],
    })
  })

  it('reads the platform from the package name', () => {
    expect(platformOf('@tailwindcss/oxide-win32-arm64-msvc')).toEqual({ os: ['win32'], cpu: ['arm64'] })
    expect(platformOf('@tailwindcss/oxide-wasm32-wasi')).toEqual({ cpu: ['wasm32'] })
  })
})
