import { describe, expect, it } from 'vitest'
import { startupChunkGroups, staticImportClosure } from './chunk-groups.ts'

const graph = (edges: Record<string, string[]>) => ({
  getModuleIds: () => Object.keys(edges)[Symbol.iterator](),
  getModuleInfo: (id: string) => (id in edges ? { importedIds: edges[id]! } : null),
})

describe('staticImportClosure', () => {
  it('follows static imports from the roots, through cycles, and nothing else', () => {
    const g = graph({
      '/w/src/app/app.tsx': ['/w/src/app/router.ts', '/w/node_modules/react/index.js'],
      '/w/src/app/router.ts': ['/w/src/app/app.tsx', '/w/src/app/routes/index.tsx'],
      '/w/src/app/routes/index.tsx': [],
      '/w/node_modules/react/index.js': [],
      '/w/src/features/plans/plans-page.tsx': ['/w/node_modules/react/index.js'],
    })
    expect([...staticImportClosure(g, ['/src/app/app.tsx'])].sort()).toEqual([
      '/w/node_modules/react/index.js',
      '/w/src/app/app.tsx',
      '/w/src/app/router.ts',
      '/w/src/app/routes/index.tsx',
    ])
    expect(staticImportClosure(g, ['/src/missing.ts']).size).toBe(0)
  })
})

describe('startupChunkGroups', () => {
  it('keeps the entry module out of the start group and fills the signed-in group at the end of the build', () => {
    const { plugin, groups } = startupChunkGroups()
    const [start, signedIn] = groups
    expect(start!.test('/w/index.html')).toBe(false)
    expect(start!.test('/w/src/main.tsx')).toBe(false)
    expect(start!.test('/w/src/app/entry/root.tsx')).toBe(true)
    expect(start!.priority).toBeGreaterThan(signedIn!.priority)
    expect(signedIn!.test('/w/src/app/app.tsx')).toBe(false)
    const buildEnd = plugin.buildEnd as unknown as (this: ReturnType<typeof graph>) => void
    buildEnd.call(
      graph({
        '/w/src/app/app.tsx': ['/w/src/app/router.ts'],
        '/w/src/app/router.ts': [],
        '/w/src/core/format/index.ts': [],
        '/w/src/shared/session/index.ts': ['/w/src/shared/session/store.ts'],
        '/w/src/shared/session/store.ts': [],
        '/w/src/shared/ui/index.ts': ['/w/src/shared/ui/modal-frame.tsx'],
        '/w/src/shared/ui/modal-frame.tsx': [],
      }),
    )
    expect(signedIn!.test('/w/src/app/router.ts')).toBe(true)
    // A shared area's index module comes along (it would be a chunk of a few bytes), not the UI kit's.
    expect(signedIn!.test('/w/src/shared/session/index.ts')).toBe(true)
    expect(signedIn!.test('/w/src/core/format/index.ts')).toBe(true)
    expect(signedIn!.test('/w/src/shared/ui/index.ts')).toBe(false)
    expect(signedIn!.test('/w/src/shared/ui/modal-frame.tsx')).toBe(false)
    expect(signedIn!.test('/w/src/features/plans/plans-page.tsx')).toBe(false)
  })
})
