// @ts-check
/**
 * The direction of imports (docs/style.md#import-direction), checked on the resolved path of every relative
 * import, re-export, `import()` and type `import('…')`, and of every `new URL('…', import.meta.url)` (a pattern
 * on the import text cannot tell `../b/x.ts` in one feature from another). A template literal is resolved
 * like a string, each `${…}` standing for any text: `import(`../sandbox/${name}.ts`)` reaches the sandbox.
 * - `main` (the entry) imports `app`, `shared` and `i18n`: it reaches the features through the app;
 * - `shared` imports nothing above it (features, app, worker, sw, server, sandbox), nor `i18n` and the
 *   catalogs: shared code takes the locale as a parameter. Its tests may set the language they read in;
 * - a feature imports `shared` and `i18n`, never another feature, `app` or `worker`; it starts the worker by
 *   the URL of `worker/entry.ts`, never imports its code;
 * - `worker` and `sw` import only pure parts of `shared` (no UI, session, notifications, config, tab client);
 * - `server` and `sandbox` import only `shared/contracts` and pure helpers, never browser code, and never each
 *   other: only `src/stack.ts` composes them. No test under src/ needs both (those that do, in
 *   tests/integration, are outside this rule), so no test is let through either;
 * - nothing in the app (main, app, features, shared, i18n, worker, sw) imports `server` or `sandbox`.
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

const APP_SIDE = ['main', 'app', 'features', 'shared', 'i18n', 'locales', 'worker', 'sw']
/** Browser code in `shared`: the screens' client, UI, state and storage. */
const SHARED_BROWSER =
  /^(ui|notifications|session|config|social\/(?!types\.ts)|network\/use-online|api\/(?!request\.ts|cookie-header\.ts))/
/** What the server side may take from `shared`. */
const SHARED_FOR_SERVER =
  /^(contracts|constants|graph|policy|format|bulk\/core)\/|^bulk\/(allowance|ports)\.ts$|^marketing\/(rates|regions)\.ts$|^api\/(cookie-header|request)\.ts$|^network\/backoff\.ts$/

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
    return undefined
  }
  switch (from.layer) {
    case 'main':
      if (to.layer === 'features') return 'the entry reaches features through the app (src/app)'
      if (['worker', 'sw', 'stack'].includes(to.layer))
        return `the entry imports only app, shared and i18n, not ${to.layer}`
      return undefined
    case 'shared':
      if (['features', 'app', 'worker', 'sw', 'main', 'stack'].includes(to.layer))
        return `shared imports nothing above it (${to.layer})`
      if ((to.layer === 'i18n' || to.layer === 'locales') && !how.test)
        return `shared code takes the locale as a parameter, it never imports ${to.layer}`
      return undefined
    case 'features':
      if (how.url && to.layer === 'worker' && to.rest === 'entry.ts') return undefined
      if (to.layer === 'features' && to.name !== from.name)
        return `a feature never imports another feature (${from.name} -> ${to.name}); move the shared part to src/shared`
      if (['app', 'worker', 'sw', 'main', 'stack'].includes(to.layer))
        return `a feature imports only shared and i18n, not ${to.layer}`
      return undefined
    case 'worker':
    case 'sw':
      if (to.layer === from.layer) return undefined
      if (to.layer !== 'shared') return `${from.layer} imports only pure shared code, not ${to.layer}`
      if (SHARED_BROWSER.test(to.rest))
        return `${from.layer} imports only pure shared code, not shared/${to.rest}`
      return undefined
    case 'server':
    case 'sandbox':
      if (['features', 'app', 'worker', 'sw', 'i18n', 'locales', 'main'].includes(to.layer))
        return `${from.layer} never imports browser code (${to.layer})`
      if (to.layer === 'shared' && !SHARED_FOR_SERVER.test(to.rest))
        return `${from.layer} imports only shared/contracts and pure helpers, not shared/${to.rest}`
      return undefined
    default:
      return undefined
  }
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
