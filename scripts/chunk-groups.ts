/**
 * Start-up chunk groups for the production build. Left to itself the bundler cuts the start-up code into
 * many small shared chunks; a phone on a slow HTTP/1.1 connection fetches six at a time, so every further
 * handful costs a round trip before the first screen. Two groups keep the start-up path to a few files:
 *
 * - `start`: everything the entry imports statically (the login screen, the session check, React);
 * - `signed-in`: what the signed-in app needs for its first screen, fetched while the session is checked:
 *   the static imports of the app module (router, query cache, layout, home).
 *
 * Everything else (terms, plans, affiliates, the bulk wizard) keeps its own lazy chunks.
 */
import type { Plugin } from 'vite'

/**
 * The modules whose static imports (with their own, recursively) make up the `signed-in` chunk. The home
 * route is not split from the route tree (vite.config.ts), so its screen comes with the app module.
 */
export const SIGNED_IN_ROOTS = [
  '/src/app/app.tsx',
  // Small modules the inbox shares with other lazy screens: alone they would be chunks of a few kB each,
  // every one a request in the inbox's first round (the local database stays out: it is large; so does the
  // Graph client with its error classes, which the first screen never calls).
  '/src/shared/api/pages.ts',
  '/src/shared/api/messages.ts',
  '/src/shared/api/upload.ts',
  '/src/core/format/dates.ts',
  '/src/core/policy/window.ts',
]
/**
 * The index modules of the areas of core, device and shared mostly re-export modules the start-up chunks
 * already hold; left alone each becomes a chunk of a few bytes that a lazy screen must still fetch. The UI
 * kit's index is not one of them: it also names the modal frame and its dialog library, which only the modals
 * need.
 */
const SHARED_INDEX = /[\\/]src[\\/](?:core|device|shared)[\\/](?!ui[\\/])[a-z-]+[\\/]index\.ts$/

const ENTRY = /[\\/](index\.html|src[\\/]main\.tsx)$/

interface ModuleGraph {
  getModuleIds(): IterableIterator<string>
  getModuleInfo(id: string): { importedIds: readonly string[] } | null
}

/** The static import closure of every module whose id ends with one of `roots`. */
export function staticImportClosure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const found = new Set<string>()
  const queue = [...graph.getModuleIds()].filter((id) => roots.some((root) => id.endsWith(root)))
  while (queue.length > 0) {
    const id = queue.pop()!
    if (found.has(id)) continue
    found.add(id)
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []))
  }
  return found
}

export function startupChunkGroups() {
  let signedIn = new Set<string>()

  const plugin: Plugin = {
    name: 'pagecast:startup-chunk-groups',
    apply: 'build',
    buildEnd() {
      const indexes = [...this.getModuleIds()].filter((id) => SHARED_INDEX.test(id))
      signedIn = staticImportClosure(this, [...SIGNED_IN_ROOTS, ...indexes])
    },
  }
  const groups = [
    // The higher priority takes a module first: what the entry needs stays out of the signed-in chunk.
    // The entry module itself stays out: the entry chunk keeps it, and the build manifest keeps naming it.
    { name: 'start', tags: ['$initial' as const], test: (id: string) => !ENTRY.test(id), priority: 2 },
    { name: 'signed-in', test: (id: string) => signedIn.has(id), priority: 1 },
  ]
  return { plugin, groups }
}
