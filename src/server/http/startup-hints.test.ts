import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { type TestApp, startTestApp } from '../testing/harness.ts'
import { type BuildManifest, linkHeader, socialHints, startupFiles } from './startup-hints.ts'

/** The shape `vite build` writes: an entry, the signed-in app behind a dynamic import, the inbox behind it. */
const manifest: BuildManifest = {
  'index.html': {
    file: 'assets/index-e1.js',
    isEntry: true,
    imports: ['_runtime-r1.js', '_start-s1.js'],
  },
  '_runtime-r1.js': { file: 'assets/runtime-r1.js' },
  '_start-s1.js': { file: 'assets/start-s1.js', imports: ['_runtime-r1.js'], css: ['assets/start-c1.css'] },
  'src/app/app.tsx': { file: 'assets/app-a1.js', imports: ['_signed-in-g1.js'] },
  '_signed-in-g1.js': { file: 'assets/signed-in-g1.js', imports: ['_runtime-r1.js', '_start-s1.js'] },
  'src/app/routes/-page-inbox/page-inbox.tsx': {
    file: 'assets/page-inbox-p1.js',
    imports: ['_start-s1.js', '_signed-in-g1.js', '_db-d1.js'],
  },
  '_db-d1.js': { file: 'assets/db-d1.js' },
  'src/features/plans/components/plans-page.tsx': { file: 'assets/plans-x1.js' },
  'src/core/graph/client.ts': { file: 'assets/client-c1.js', imports: ['_runtime-r1.js'] },
  'src/shared/session/device-data.ts': { file: 'assets/device-data-v1.js', imports: ['_db-d1.js'] },
}

describe('startupFiles', () => {
  it('names only the entry and what it imports for a first-time visitor, stylesheet first', () => {
    expect(startupFiles(manifest, { returning: false })).toEqual({
      entry: ['assets/index-e1.js', 'assets/runtime-r1.js', 'assets/start-c1.css', 'assets/start-s1.js'],
      signedIn: [],
    })
  })

  it("adds the signed-in app and the session check's modules for a returning visitor, each file once", () => {
    const files = startupFiles(manifest, { returning: true })
    expect(files.signedIn).toEqual([
      'assets/app-a1.js',
      'assets/client-c1.js',
      'assets/device-data-v1.js',
      'assets/signed-in-g1.js',
      'assets/db-d1.js',
    ])
    const all = [...files.entry, ...files.signedIn]
    expect(new Set(all).size).toBe(all.length)
    // A screen's own code is not named, the inbox's neither: it is asked for once the layout is painted.
    expect(all).not.toContain('assets/plans-x1.js')
    expect(all).not.toContain('assets/page-inbox-p1.js')
  })

  it("names the social network's first request: the SDK for everyone, the sandbox's status for a returning visitor", () => {
    expect(socialHints('facebook', { returning: false })).toEqual([
      '<https://connect.facebook.net/en_US/sdk.js>; rel=preload; as=script; crossorigin',
    ])
    expect(socialHints('sandbox', { returning: false })).toEqual([])
    expect(socialHints('sandbox', { returning: true })).toEqual([
      '</sandbox/login-status>; rel=preload; as=fetch; crossorigin',
    ])
  })

  it('writes the header in load order, the client configuration after the entry, so the browser reuses the early copies', () => {
    const files = {
      entry: ['assets/start-c1.css', 'assets/start-s1.js'],
      signedIn: ['assets/app-a1.js'],
    }
    expect(linkHeader(files, ['</sandbox/login-status>; rel=preload; as=fetch; crossorigin'])).toBe(
      '</assets/start-c1.css>; rel=preload; as=style; crossorigin, </assets/start-s1.js>; rel=modulepreload, ' +
        '</api/v2/config>; rel=preload; as=fetch; crossorigin, </sandbox/login-status>; rel=preload; as=fetch; crossorigin, </assets/app-a1.js>; rel=modulepreload',
    )
    expect(linkHeader({ entry: [], signedIn: [] })).toBeUndefined()
  })
})

describe('the app page with start-up hints', () => {
  let t: TestApp
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-hints-test-'))
    mkdirSync(join(dir, '.vite'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Pagecast</title>')
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest))
    t = await startTestApp('pglite', {}, { STATIC_DIR: dir })
  })
  afterAll(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('names the signed-in code only to a browser holding the session cookie, and varies on it', async () => {
    const fresh = await t.app.inject({ url: '/' })
    expect(fresh.headers.link).toContain('</assets/start-s1.js>; rel=modulepreload')
    expect(fresh.headers.link).not.toContain('signed-in')
    expect(fresh.headers.link).not.toContain('device-data')
    expect(fresh.headers.link).toContain('</api/v2/config>; rel=preload; as=fetch; crossorigin')
    expect(fresh.headers.vary).toContain('Cookie')
    const returning = await t.app.inject({
      url: '/109665931121807',
      headers: { cookie: `theme=dark; ${SESSION_COOKIE}=abc` },
    })
    expect(returning.headers.link).toContain('</assets/signed-in-g1.js>; rel=modulepreload')
    expect(returning.headers.link).not.toContain('page-inbox')
    expect(returning.headers.link).toContain('</sandbox/login-status>; rel=preload; as=fetch')
  })

  it('reads the manifest again when a new build replaces it', async () => {
    writeFileSync(
      join(dir, '.vite', 'manifest.json'),
      JSON.stringify({ 'index.html': { file: 'assets/index-e2.js', isEntry: true } }),
    )
    // A later modification time than the first write, whatever the file system's resolution.
    utimesSync(join(dir, '.vite', 'manifest.json'), new Date(), new Date(Date.now() + 5_000))
    expect((await t.app.inject({ url: '/' })).headers.link).toBe(
      '</assets/index-e2.js>; rel=modulepreload, </api/v2/config>; rel=preload; as=fetch; crossorigin',
    )
  })
})
