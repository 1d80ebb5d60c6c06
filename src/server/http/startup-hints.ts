/**
 * Start-up hints: the answer for the app's page names, in a `Link` header, what the browser is about to
 * need, so it is fetched in one early round instead of being discovered step by step (the entry, then the
 * social login check and the signed-in app once the entry runs). What is named depends on the visitor, in
 * this order:
 *
 * - everyone: the entry's script, its static imports and its stylesheet;
 * - the social network's first request: with the network's SDK its script (every start loads it); with the
 *   sandbox, for a returning visitor only, its login status (the first thing the app asks it);
 * - everyone: the client configuration, which the entry asks for before anything else can start;
 * - a returning visitor (the browser holds the session cookie): the signed-in app, and the modules the
 *   session's check loads once the social login answers.
 *
 * A first-time visitor downloads only the login screen. A screen's own code (the inbox's) is not named: on a
 * slow connection it would share the first round with the code and the requests the signed-in layout waits
 * for, and the route asks for it once that layout is painted (src/app/routes/$pageId.tsx;
 * docs/decisions.md#a-start-fetches-the-layouts-needs-first-a-screens-own-code-after-its-paint). The files come
 * from the build's manifest.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FB_SDK_URL } from '../../core/constants/social.ts'

/** The module the app loads once a session exists (src/app/entry/root.tsx). */
const SIGNED_IN_APP = 'src/app/app.tsx'
/**
 * What the session's check reads as soon as the social login answers (src/shared/session/actions.ts): the
 * Graph client for the profile and the pages, and the local database's owner check.
 */
const SESSION_MODULES = ['src/core/graph/client.ts', 'src/shared/session/device-data.ts']
/** The sandbox's login status, as the app's sandbox adapter asks for it (src/shared/social/sandbox.ts). */
export const SANDBOX_LOGIN_STATUS = '/sandbox/login-status'

/** Which social login the app starts with (the client configuration's `social`). */
export type SocialKind = 'facebook' | 'sandbox'

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
}

export interface StartupFiles {
  entry: string[]
  signedIn: string[]
}

/** The built files to name for a visitor, each once, in the order they are needed. */
export function startupFiles(manifest: BuildManifest, visitor: Visitor): StartupFiles {
  const seenKeys = new Set<string>()
  const seenFiles = new Set<string>()
  const collect = (roots: string[]) => {
    const files: string[] = []
    const queue = [...roots]
    while (queue.length > 0) {
      const key = queue.shift()!
      const chunk = manifest[key]
      if (seenKeys.has(key) || !chunk) continue
      seenKeys.add(key)
      for (const file of [...(chunk.css ?? []), chunk.file])
        if (!seenFiles.has(file) && /\.(js|css)$/.test(file)) {
          seenFiles.add(file)
          files.push(file)
        }
      queue.push(...(chunk.imports ?? []))
    }
    return files
  }
  const entry = collect(Object.keys(manifest).filter((k) => manifest[k]!.isEntry))
  const signedIn = visitor.returning ? collect([SIGNED_IN_APP, ...SESSION_MODULES]) : []
  return { entry, signedIn }
}

/** The social network's first request for this visitor, as header links. */
export function socialHints(kind: SocialKind, visitor: Visitor): string[] {
  if (kind === 'facebook') return [`<${FB_SDK_URL}>; rel=preload; as=script; crossorigin`]
  return visitor.returning ? [`<${SANDBOX_LOGIN_STATUS}>; rel=preload; as=fetch; crossorigin`] : []
}

/** The client configuration as the app asks for it (src/shared/config/client-config.ts). */
export const CONFIG_HINT = '</api/v2/config>; rel=preload; as=fetch; crossorigin'

export function linkHeader(files: StartupFiles, social: readonly string[] = []): string | undefined {
  // `crossorigin` as the app loads them, or the browser would not reuse the early copy.
  const link = (f: string) =>
    f.endsWith('.css') ? `</${f}>; rel=preload; as=style; crossorigin` : `</${f}>; rel=modulepreload`
  if (files.entry.length === 0) return undefined
  const all = [...files.entry.map(link), CONFIG_HINT, ...social, ...files.signedIn.map(link)]
  return all.join(', ')
}

/** Hints for a build folder; the manifest is read again whenever the build changes. */
export function startupHints(root: string, social: SocialKind): (visitor: Visitor) => string | undefined {
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
    return manifest ? linkHeader(startupFiles(manifest, visitor), socialHints(social, visitor)) : undefined
  }
}
