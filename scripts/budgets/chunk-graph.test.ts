import { describe, expect, it } from 'vitest'
import {
  type ViteManifest,
  entryKeys,
  homeRouteKeys,
  jsFiles,
  moduleId,
  signedInCatalogKeys,
  startupCatalogKeys,
  staticClosure,
} from './chunk-graph.ts'

const manifest: ViteManifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js'],
    dynamicImports: ['src/app/routes/index.tsx?tsr-split=component', 'src/features/plans/plans.tsx'],
  },
  '_vendor.js': { file: 'assets/vendor.js', imports: ['_runtime.js'] },
  '_runtime.js': { file: 'assets/runtime.js' },
  '_shared-ui.js': { file: 'assets/shared-ui.js' },
  'src/app/routes/index.tsx?tsr-split=component': {
    file: 'assets/home.js',
    isDynamicEntry: true,
    imports: ['_vendor.js', '_shared-ui.js'],
  },
  'src/app/routes/_authed.tsx?tsr-split=component': { file: 'assets/layout.js', isDynamicEntry: true },
  'src/app/routes/pages/$pageId/inbox.tsx?tsr-split=component': {
    file: 'assets/inbox.js',
    isDynamicEntry: true,
  },
  'src/features/plans/plans.tsx': { file: 'assets/plans.js', isDynamicEntry: true, imports: ['_vendor.js'] },
  'src/locales/en/start.po': { file: 'assets/start-en.js', isDynamicEntry: true },
  'src/locales/es/start.po': { file: 'assets/start-es.js', isDynamicEntry: true },
  'src/locales/en/app.po': { file: 'assets/app-en.js', isDynamicEntry: true },
  'src/locales/es/app.po': { file: 'assets/app-es.js', isDynamicEntry: true },
  'src/locales/en/marketing.po': { file: 'assets/marketing-en.js', isDynamicEntry: true },
  'src/locales/en/inbox.po': { file: 'assets/inbox-en.js', isDynamicEntry: true },
  'src/locales/es/inbox.po': { file: 'assets/inbox-es.js', isDynamicEntry: true },
  'src/app/app.css': { file: 'assets/app.css' },
}

describe('the chunk graph of a build', () => {
  it('follows static imports transitively but not dynamic ones', () => {
    expect([...staticClosure(manifest, entryKeys(manifest))].sort()).toEqual([
      '_runtime.js',
      '_vendor.js',
      'index.html',
    ])
  })

  it("counts only the start-up locale's start catalog, not those merged in the background", () => {
    expect(startupCatalogKeys(manifest)).toEqual(['src/locales/en/start.po'])
  })

  it("counts the locale's other catalogs for the signed-in app, not another locale's", () => {
    expect(signedInCatalogKeys(manifest).sort()).toEqual([
      'src/locales/en/app.po',
      'src/locales/en/inbox.po',
      'src/locales/en/marketing.po',
    ])
  })

  it('takes the index route and pathless layouts as the way to home, not deeper routes', () => {
    expect(homeRouteKeys(manifest).sort()).toEqual([
      'src/app/routes/_authed.tsx?tsr-split=component',
      'src/app/routes/index.tsx?tsr-split=component',
    ])
  })

  it('lists each JavaScript file once and leaves out stylesheets', () => {
    expect(jsFiles(manifest, ['index.html', '_vendor.js', '_vendor.js', 'src/app/app.css'])).toEqual([
      'assets/index.js',
      'assets/vendor.js',
    ])
  })

  it('turns source-map paths into project module ids, wherever the build folder is', () => {
    expect(moduleId('../../src/features/plans/plans.tsx', '/work/app/dist/assets', '/work/app')).toBe(
      'src/features/plans/plans.tsx',
    )
    expect(moduleId('../../../work/app/src/features/plans/plans.tsx', '/tmp/dist/assets', '/work/app')).toBe(
      'src/features/plans/plans.tsx',
    )
    expect(
      moduleId('../../../work/app/node_modules/react-markdown/lib/index.js', '/tmp/dist/assets', '/work/app'),
    ).toBe('node_modules/react-markdown/lib/index.js')
    expect(
      moduleId('../../src/app/routes/index.tsx?tsr-split=component', '/work/app/dist/assets', '/work/app'),
    ).toBe('src/app/routes/index.tsx')
  })
})
