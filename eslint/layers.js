// @ts-check
/**
 * The direction of imports (docs/style.md#import-direction), checked on the resolved path of every relative
 * import, re-export, `import()` and type `import('…')`, and of every `new URL('…', import.meta.url)` (a pattern
 * on the import text cannot tell `../b/x.ts` in one feature from another). A template literal is resolved
 * like a string, each `${…}` standing for any text: `import(`../sandbox/${name}.ts`)` reaches the sandbox.
 * The code more than one program uses sits in three folders, by where it can run, and the rule reads only
 * the folder:
 * - `core` runs anywhere (Node, the tab, the worker, the service worker) and imports only `core`;
 * - `device` is the device's IndexedDB store (the Dexie database, the bulk job records and the worker
 *   protocol), used by the tabs and the worker: it imports `core` and `device`;
 * - `shared` is the tabs' browser code (UI, session, the API client, notifications, config): it imports
 *   `core`, `device` and `shared`, nothing above it (features, app, worker, sw).
 * None of the three imports `i18n` or the catalogs: they take the locale as a parameter. Their tests may set
 * the language they read in. Then:
 * - `main` (the entry) imports `app`, the three and `i18n`: it reaches the features through the app;
 * - a feature imports the three and `i18n`, never another feature, `app` or `worker`; it starts the worker by
 *   the URL of `worker/entry.ts`, never imports its code;
 * - `worker` and `sw` import `core` and `device`, never the tabs' `shared`;
 * - `server` and `sandbox` import only `core`, and never each other: only `src/stack.ts` composes them. No
 *   test under src/ needs both (those that do, in tests/integration, are outside this rule), so no test is
 *   let through either;
 * - nothing in the app (main, app, features, core, device, shared, i18n, worker, sw) imports `server` or
 *   `sandbox`;
 * - a `testing/` folder (a layer's test kits) is imported only by tests and other kits, never by the product.
 * Import cycles are found by scripts/import-graph.ts, in scripts/import-direction.test.ts.
 */
import path from 'node:path'

const SRC = path.resolve(import.meta.dirname, '..', 'src')

/** @param {string} file @returns {{ layer: string, name?: string, rest: string } | undefined} */
function place(file) {
  const rel = path.relative(SRC, file)
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined
  const parts = rel.split(path.sep)
  const top = parts.length === 1 ? parts[0].replace(/\.[^.]+$/, '') : parts[0]
  if (top === 'features') return { layer: 'features', name: parts[1], rest: parts.slice(2).join('/') }
  return { layer: top, rest: parts.slice(1).join('/') }
}

const APP_SIDE = ['main', 'app', 'features', 'core', 'device', 'shared', 'i18n', 'locales', 'worker', 'sw']
/** The folders of code more than one program uses, from the one that runs anywhere to the tabs' own. */
const COMMON = ['core', 'device', 'shared']
/** What each of these layers may import besides itself; a layer not listed may import any app-side layer. */
const MAY_IMPORT = {
  core: [],
  device: ['core'],
  shared: ['core', 'device'],
  main: ['app', ...COMMON, 'i18n', 'locales'],
  features: [...COMMON, 'i18n', 'locales'],
  worker: ['core', 'device'],
  sw: ['core', 'device'],
  server: ['core'],
  sandbox: ['core'],
}
/** Why a layer may not import beyond its list. */
const BECAUSE = {
  core: 'core runs anywhere and imports only core',
  device: 'device is the IndexedDB store the tabs and the worker share: it imports only core and device',
  shared: 'shared imports only core, device and shared, nothing above it',
  main: 'the entry imports only app, core, device, shared and i18n',
  features: 'a feature imports only core, device, shared and i18n',
  worker: "worker imports only core and device, never the tabs' shared code",
  sw: "sw imports only core and device, never the tabs' shared code",
  server: 'server imports only core, never browser code',
  sandbox: 'sandbox imports only core, never browser code',
}

/** @param {{ rest: string }} at */
const inTesting = (at) => at.rest.startsWith('testing/') || at.rest.includes('/testing/')

/**
 * @param {{ layer: string, name?: string, rest: string }} from
 * @param {{ layer: string, name?: string, rest: string }} to
 * @param {{ url: boolean, test: boolean }} how `url`: a `new URL(…)`; `test`: the importer is a test file
 * @returns {string | undefined} why `from` may not import `to`
 */
function refusal(from, to, how) {
  if (to.layer === 'server' || to.layer === 'sandbox') {
    if (APP_SIDE.includes(from.layer)) return `the app never imports ${to.layer} code`
    if (from.layer === 'server' && to.layer === 'sandbox')
      return 'the server never imports the sandbox: src/stack.ts composes them'
    if (from.layer === 'sandbox' && to.layer === 'server')
      return "the sandbox never imports the server: it stands in for the network, which knows only the API's HTTP"
  }
  if (inTesting(to) && !how.test && !inTesting(from))
    return `only tests and test kits import a testing/ folder (${to.layer}/${to.rest})`
  if (from.layer === 'main' && to.layer === 'features')
    return 'the entry reaches features through the app (src/app)'
  if (from.layer === 'features') {
    if (how.url && to.layer === 'worker' && to.rest === 'entry.ts') return undefined
    if (to.layer === 'features' && to.name !== from.name)
      return `a feature never imports another feature (${from.name} -> ${to.name}); move the shared part to src/shared`
  }
  if (COMMON.includes(from.layer) && (to.layer === 'i18n' || to.layer === 'locales'))
    return how.test
      ? undefined
      : `${from.layer} code takes the locale as a parameter, it never imports ${to.layer}`
  const allowed = MAY_IMPORT[/** @type {keyof typeof MAY_IMPORT} */ (from.layer)]
  if (!allowed || to.layer === from.layer || allowed.includes(to.layer)) return undefined
  return `${BECAUSE[/** @type {keyof typeof BECAUSE} */ (from.layer)]}, not ${to.layer}`
}

/**
 * The path a string or a template literal names; each `${…}` of a template becomes `*`, which matches no
 * layer or file name, so only the fixed part before it decides.
 * @param {any} node
 * @returns {string | undefined}
 */
function specifier(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node?.type === 'TemplateLiteral')
    return node.quasis.map((/** @type {any} */ q) => q.value.cooked ?? q.value.raw).join('*')
  return undefined
}

/** @param {any} node */
function isImportMetaUrl(node) {
  return (
    node?.type === 'MemberExpression' &&
    node.object.type === 'MetaProperty' &&
    node.object.meta.name === 'import' &&
    node.property.type === 'Identifier' &&
    node.property.name === 'url'
  )
}

/** @type {import('eslint').Rule.RuleModule} */
const direction = {
  meta: { type: 'problem', messages: { refused: 'Import direction: {{why}}.' }, schema: [] },
  create(context) {
    const from = place(context.filename)
    if (!from) return {}
    const test = /\.test\.tsx?$/.test(context.filename)
    /** @param {any} source @param {boolean} [url] a `new URL(…)`, not an import */
    const check = (source, url = false) => {
      const spec = specifier(source)
      if (!spec?.startsWith('.')) return
      const to = place(path.resolve(path.dirname(context.filename), spec))
      if (!to) return
      const why = refusal(from, to, { url, test })
      if (why) context.report({ node: source, messageId: 'refused', data: { why } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      /** @param {any} node a type's `import('…')` (typescript-eslint) */
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      NewExpression: (node) => {
        const [target, base] = node.arguments
        if (node.callee.type === 'Identifier' && node.callee.name === 'URL' && isImportMetaUrl(base))
          check(target, true)
      },
    }
  },
}

export const layers = { rules: { direction } }
