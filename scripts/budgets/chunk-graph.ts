/**
 * The chunk graph of a Vite build, read from `.vite/manifest.json`: which JavaScript a route loads before it
 * can render (a chunk and everything it imports statically), and which modules each chunk holds (from its
 * source map, since the manifest names only entries and dynamic-import targets).
 */
import { relative, resolve, sep } from 'node:path'

export interface ManifestChunk {
  file: string
  src?: string
  name?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}

export type ViteManifest = Record<string, ManifestChunk>

/** Manifest keys of the chunks loaded with `keys`: each one and its static imports, transitively. */
export function staticClosure(manifest: ViteManifest, keys: string[]): Set<string> {
  const seen = new Set<string>()
  const stack = [...keys]
  while (stack.length > 0) {
    const key = stack.pop()!
    const chunk = manifest[key]
    if (seen.has(key) || !chunk) continue
    seen.add(key)
    stack.push(...(chunk.imports ?? []))
  }
  return seen
}

export function entryKeys(manifest: ViteManifest): string[] {
  return Object.entries(manifest)
    .filter(([, c]) => c.isEntry && c.file.endsWith('.js'))
    .map(([k]) => k)
}

/**
 * The catalog the first screen waits for: the source locale's `start` catalog, when it is a chunk of its own.
 * The other catalogs (app, inbox, bulk, marketing, pwa) are read by the signed-in app only
 * (`signedInCatalogKeys`).
 */
export function startupCatalogKeys(manifest: ViteManifest, locale = 'en'): string[] {
  return Object.keys(manifest).filter((k) => k === `src/locales/${locale}/start.po`)
}

/** The catalogs the signed-in app waits for beside its code: every catalog of the locale but `start`. */
export function signedInCatalogKeys(manifest: ViteManifest, locale = 'en'): string[] {
  return Object.keys(manifest).filter(
    (k) =>
      k.startsWith(`src/locales/${locale}/`) && k.endsWith('.po') && k !== `src/locales/${locale}/start.po`,
  )
}

/**
 * Route chunks on the way to `/` for a signed-in user: the root route, pathless layout routes (`_name`) and
 * the index route, in any of the pieces the router's code splitting makes of them (`?tsr-split=…`).
 */
export function homeRouteKeys(manifest: ViteManifest): string[] {
  return Object.keys(manifest).filter((k) => {
    const m = /^src\/app\/routes\/(.+)\.tsx(\?.*)?$/.exec(k)
    if (!m) return false
    return m[1]!
      .split('/')
      .every(
        (seg) =>
          seg === '__root' ||
          seg === 'index' ||
          seg === 'route' ||
          seg.startsWith('_') ||
          /^\(.+\)$/.test(seg),
      )
  })
}

/** Files (relative to the build folder) of a set of manifest keys, JavaScript only. */
export function jsFiles(manifest: ViteManifest, keys: Iterable<string>): string[] {
  const files = [...keys].map((k) => manifest[k]?.file).filter((f): f is string => !!f && f.endsWith('.js'))
  return [...new Set(files)].sort()
}

/**
 * A source-map source as a project-relative module id (`src/features/…`, `node_modules/…`). Sources are
 * relative to the map's folder, which may lie outside the project when the build went elsewhere.
 */
export function moduleId(source: string, mapDir: string, root: string): string {
  const clean = source.replace(/\?.*$/, '')
  const nm = clean.lastIndexOf('node_modules/')
  if (nm >= 0) return clean.slice(nm)
  return relative(root, resolve(mapDir, clean)).split(sep).join('/')
}
