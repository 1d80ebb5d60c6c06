/**
 * Start-up hints: the answer for the app's page names, in a `Link` header, the code the browser is about to
 * need, so it is fetched in one early round instead of being discovered step by step (the entry, then the
 * signed-in app after the entry runs, then the inbox after the router runs). What is named depends on the
 * visitor:
 *
 * - everyone: the entry's script, its static imports and its stylesheet, in the order they are needed;
 * - a returning visitor (the browser holds the session cookie): the signed-in app too;
 * - a returning visitor opening a page's inbox (`/{pageId}`; page ids are numeric): the inbox screen too.
 *
 * A first-time visitor downloads only the login screen. The files come from the build's manifest.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The module the app loads once a session exists (src/app/entry/root.tsx). */
const SIGNED_IN_APP = 'src/app/app.tsx'
/** The module the inbox route loads (src/app/routes/$pageId.tsx). */
const INBOX_SCREEN = 'src/app/routes/-page-inbox/page-inbox.tsx'
const PAGE_PATH = /^\/\d+\/?$/

export interface ManifestChunk {
  file: string
  imports?: string[]
  css?: string[]
  isEntry?: boolean
}
export type BuildManifest = Record<string, ManifestChunk>

export interface Visitor {
  /** The browser sent the session cookie. */
  returning: boolean
  /** The path asked for. */
  path: string
}

/** The files to name for a visitor, each once, in the order they are needed. */
export function startupFiles(manifest: BuildManifest, visitor: Visitor): string[] {
  const files: string[] = []
  const seen = new Set<string>()
  const add = (roots: string[]) => {
    const queue = [...roots]
    while (queue.length > 0) {
      const key = queue.shift()!
      const chunk = manifest[key]
      if (seen.has(key) || !chunk) continue
      seen.add(key)
      for (const file of [...(chunk.css ?? []), chunk.file])
        if (!files.includes(file) && /\.(js|css)$/.test(file)) files.push(file)
      queue.push(...(chunk.imports ?? []))
    }
  }
  add(Object.keys(manifest).filter((k) => manifest[k]!.isEntry))
  if (visitor.returning) {
    add([SIGNED_IN_APP])
    if (PAGE_PATH.test(visitor.path)) add([INBOX_SCREEN])
  }
  return files
}

export function linkHeader(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined
  return (
    files
      // `crossorigin` as index.html loads them, or the browser would not reuse the early copy.
      .map((f) =>
        f.endsWith('.css') ? `</${f}>; rel=preload; as=style; crossorigin` : `</${f}>; rel=modulepreload`,
      )
      .join(', ')
  )
}

/** Hints for a build folder; the manifest is read again whenever the build changes. */
export function startupHints(root: string): (visitor: Visitor) => string | undefined {
  const path = join(root, '.vite', 'manifest.json')
  let seen = -1
  let manifest: BuildManifest | undefined
  return (visitor) => {
    try {
      const mtime = statSync(path).mtimeMs
      if (mtime !== seen) {
        seen = mtime
        manifest = JSON.parse(readFileSync(path, 'utf8')) as BuildManifest
      }
    } catch {
      // No manifest (a development build), or one being written: no hints.
      return undefined
    }
    return manifest ? linkHeader(startupFiles(manifest, visitor)) : undefined
  }
}
