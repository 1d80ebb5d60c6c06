import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { importCycles, importGraph } from './import-graph.ts'

const eslint = new ESLint({ cwd: process.cwd() })

async function directionErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'layers/direction').map((m) => m.message)
}

describe('the import direction lint', () => {
  it('fails on a feature importing another feature', async () => {
    const errors = await directionErrors(
      'src/features/a/x.ts',
      "import { b } from '../b/x.ts'\nexport const a = b\n",
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/a feature never imports another feature \(a -> b\)/)
  })

  it('lets a feature import its own files and shared code', async () => {
    const code =
      "import { x } from './api/x.ts'\nimport { y } from '../../shared/y.ts'\nexport const a = [x, y]\n"
    expect(await directionErrors('src/features/a/index.ts', code)).toEqual([])
  })

  it('fails on a feature importing the worker, and on shared importing a feature', async () => {
    expect(
      await directionErrors('src/features/a/x.ts', "export * from '../../worker/run-job.ts'\n"),
    ).toHaveLength(1)
    expect(
      await directionErrors('src/shared/bulk/x.ts', "export * from '../../features/bulk/x.ts'\n"),
    ).toHaveLength(1)
  })

  it('keeps browser code out of the server and server code out of the app', async () => {
    expect(await directionErrors('src/server/x.ts', "export * from '../device/db/db.ts'\n")).toHaveLength(1)
    expect(
      await directionErrors('src/server/x.ts', "export * from '../shared/api/client.ts'\n"),
    ).toHaveLength(1)
    expect(await directionErrors('src/server/x.ts', "export * from '../core/contracts/api.ts'\n")).toEqual([])
    expect(await directionErrors('src/app/x.ts', "export * from '../server/app.ts'\n")).toHaveLength(1)
    expect(
      await directionErrors('src/worker/x.ts', "export * from '../shared/ui/avatar.tsx'\n"),
    ).toHaveLength(1)
  })
})

describe('the three folders of common code, by where it runs', () => {
  it('keeps core free of anything but core, whatever the file and the area', async () => {
    for (const code of [
      "export * from '../../device/db/db.ts'\n",
      "export * from '../../shared/ui/avatar.tsx'\n",
      "export const load = () => import('../../shared/session/store.ts')\n",
      "export type W = import('../../worker/run-job.ts').RunDeps\n",
    ]) {
      const errors = await directionErrors('src/core/new-area/x.ts', code)
      expect(errors, code).toHaveLength(1)
      expect(errors[0]).toMatch(/core runs anywhere and imports only core/)
    }
    expect(
      await directionErrors(
        'src/core/new-area/x.ts',
        "export * from '../graph/types.ts'\nexport * from './y.ts'\n",
      ),
    ).toEqual([])
  })

  it("lets the device store import core, and not the tabs' shared code", async () => {
    expect(
      await directionErrors('src/device/bulk/x.ts', "export * from '../../core/contracts/api.ts'\n"),
    ).toEqual([])
    const errors = await directionErrors(
      'src/device/bulk/x.ts',
      "export * from '../../shared/session/store.ts'\n",
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/device is the IndexedDB store .* not shared/)
  })

  it('lets the worker and the service worker import core and device, never shared', async () => {
    for (const file of ['src/worker/x.ts', 'src/sw/x.ts']) {
      const allowed = "export * from '../core/bulk/machine.ts'\nexport * from '../device/bulk/records.ts'\n"
      expect(await directionErrors(file, allowed), file).toEqual([])
      const errors = await directionErrors(file, "export * from '../shared/notifications/store.ts'\n")
      expect(errors, file).toHaveLength(1)
      expect(errors[0]).toMatch(/imports only core and device, never the tabs' shared code, not shared/)
    }
  })

  it('lets shared and a feature import all three', async () => {
    const code =
      "export * from '../../core/graph/types.ts'\nexport * from '../../device/db/db.ts'\nexport * from '../ui/avatar.tsx'\n"
    expect(await directionErrors('src/shared/session/x.ts', code)).toEqual([])
    expect(
      await directionErrors('src/features/chat/x.ts', code.replaceAll("'../ui/", "'../../shared/ui/")),
    ).toEqual([])
  })
})

describe('the test kits', () => {
  it('are imported by tests and other kits, never by the product', async () => {
    const kit = "export * from '../device/testing/bulk-fakes.ts'\n"
    const errors = await directionErrors('src/worker/run-job.ts', kit)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /only tests and test kits import a testing\/ folder \(device\/testing\/bulk-fakes\.ts\)/,
    )
    expect(await directionErrors('src/worker/run-job.test.ts', kit)).toEqual([])
    expect(
      await directionErrors(
        'src/worker/testing/fakes.ts',
        "export * from '../../device/testing/bulk-fakes.ts'\n",
      ),
    ).toEqual([])
    expect(
      await directionErrors('src/server/bulk/x.ts', "export * from '../testing/harness.ts'\n"),
    ).toHaveLength(1)
    expect(
      await directionErrors(
        'src/server/bulk/x.test.ts',
        "export * from '../../core/testing/sender-cases.ts'\n",
      ),
    ).toEqual([])
  })
})

describe('the walls between the app, the server and the sandbox', () => {
  it('refuses the server importing the sandbox, statically, dynamically or by URL', async () => {
    const refused = [
      "import { sandboxPlugin } from '../sandbox/app.ts'\nexport const p = sandboxPlugin\n",
      "export * from '../../sandbox/state/demo.ts'\n",
      'export const load = () => import(`../sandbox/app.ts`)\n',
      'export const load = (name: string) => import(`../sandbox/routes/${name}.ts`)\n',
      "export const url = new URL('../sandbox/html.ts', import.meta.url)\n",
      'export const url = (name: string) => new URL(`../sandbox/state/${name}.ts`, import.meta.url)\n',
      "export type Options = import('../sandbox/app.ts').SandboxOptions\n",
    ]
    for (const code of refused) {
      const file = code.includes('../../sandbox') ? 'src/server/payments/x.ts' : 'src/server/x.ts'
      const errors = await directionErrors(file, code)
      expect(errors, code).toHaveLength(1)
      expect(errors[0]).toMatch(/server never imports the sandbox: src\/stack\.ts composes them/)
    }
  })

  it('refuses the sandbox importing the server, and lets it import the shared contracts', async () => {
    for (const code of [
      "import type { ApiContext } from '../server/context.ts'\nexport type C = ApiContext\n",
      "export { SANDBOX_PUSH_PATH } from '../../server/routes/push.ts'\n",
      "export const url = new URL('../server/config.ts', import.meta.url)\n",
      'export const load = () => import(`../server/db/store.ts`)\n',
    ]) {
      const errors = await directionErrors(
        code.includes('../../server') ? 'src/sandbox/push/x.ts' : 'src/sandbox/x.ts',
        code,
      )
      expect(errors, code).toHaveLength(1)
      expect(errors[0]).toMatch(/sandbox never imports the server/)
    }
    expect(await directionErrors('src/sandbox/x.ts', "export * from '../core/contracts/push.ts'\n")).toEqual(
      [],
    )
    expect(
      await directionErrors('src/sandbox/x.ts', "export * from '../shared/api/client.ts'\n"),
    ).toHaveLength(1)
    expect(await directionErrors('src/sandbox/x.ts', "export * from './state/demo.ts'\n")).toEqual([])
  })

  it('lets src/stack.ts compose the server and the sandbox', async () => {
    const code =
      "export { buildApp } from './server/app.ts'\nexport { sandboxPlugin } from './sandbox/app.ts'\n"
    expect(await directionErrors('src/stack.ts', code)).toEqual([])
  })

  it('refuses core, device and shared code importing i18n, but for a test that sets the language it reads', async () => {
    for (const [file, code] of [
      [
        'src/core/contracts/x.ts',
        "import { locales } from '../../i18n/detect.ts'\nexport const l = locales\n",
      ],
      [
        'src/shared/ui/x.tsx',
        "import { activateLocale } from '../../i18n/activate.ts'\nexport const a = activateLocale\n",
      ],
      ['src/shared/ui/x.tsx', 'export const load = () => import(`../../i18n/activate.ts`)\n'],
      ['src/shared/x.ts', "export const url = new URL('../i18n/activate.ts', import.meta.url)\n"],
      ['src/device/db/x.ts', "export * from '../../locales/en/app.po'\n"],
    ] as const) {
      const errors = await directionErrors(file, code)
      expect(errors, code).toHaveLength(1)
      expect(errors[0]).toMatch(
        /(core|device|shared) code takes the locale as a parameter, it never imports (i18n|locales)/,
      )
    }
    const test = "import { activateLocale } from '../../i18n/activate.ts'\nexport const a = activateLocale\n"
    expect(await directionErrors('src/shared/ui/x.test.ts', test)).toEqual([])
    expect(
      await directionErrors('src/shared/ui/x.tsx', "export * from '../../core/constants/locales.ts'\n"),
    ).toEqual([])
  })

  it('refuses the entry reaching into a feature: it goes through the app', async () => {
    for (const code of [
      "import { scheduleServiceWorker } from './features/pwa/schedule.ts'\nexport const s = scheduleServiceWorker\n",
      "export const load = () => import('./features/pwa/register.ts')\n",
      'export const load = () => import(`./features/pwa/register.ts`)\n',
    ]) {
      const errors = await directionErrors('src/main.tsx', code)
      expect(errors, code).toHaveLength(1)
      expect(errors[0]).toMatch(/the entry reaches features through the app/)
    }
    const allowed = "export * from './app/entry/service-worker.ts'\nexport * from './i18n/detect.ts'\n"
    expect(await directionErrors('src/main.tsx', allowed)).toEqual([])
  })

  it('lets a feature start the worker by its URL, never import the worker code', async () => {
    const start =
      "export const w = new Worker(new URL('../../worker/entry.ts', import.meta.url), { type: 'module' })\n"
    expect(await directionErrors('src/features/bulk/x.ts', start)).toEqual([])
    const url = "export const u = new URL('../../worker/run-job.ts', import.meta.url)\n"
    expect(await directionErrors('src/features/bulk/x.ts', url)).toHaveLength(1)
    expect(
      await directionErrors('src/features/bulk/x.ts', "export * from '../../worker/entry.ts'\n"),
    ).toHaveLength(1)
  })
})

describe('import cycles', () => {
  it('finds none among the modules of src/', () => {
    expect(importCycles(importGraph(path.resolve('src')))).toEqual([])
  })

  it('finds a cycle, type-only imports and re-exports included', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'))
    try {
      mkdirSync(path.join(dir, 'b'))
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b/b.ts'\nexport type A = B\n")
      writeFileSync(path.join(dir, 'b', 'b.ts'), "export * from './c.tsx'\nexport type B = string\n")
      writeFileSync(path.join(dir, 'b', 'c.tsx'), 'export const load = () => import(`../a.ts`)\n')
      writeFileSync(path.join(dir, 'd.ts'), "import './a.ts'\n")
      expect(importCycles(importGraph(dir))).toEqual([['a.ts', 'b/b.ts', 'b/c.tsx']])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
