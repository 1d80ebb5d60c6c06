// @ts-check
/**
 * The direction of imports (docs/style.md#import-direction), checked on the resolved path of every relative
 * import, re-export and dynamic import (a pattern on the import text cannot tell `../b/x.ts` in one feature
 * from another):
 * - `shared` imports nothing above it (features, app, worker, sw, server, sandbox);
 * - a feature imports `shared` and `i18n`, never another feature, `app` or `worker`;
 * - `worker` and `sw` import only pure parts of `shared` (no UI, session, notifications, config, tab client);
 * - `server` and `sandbox` import only `shared/contracts` and pure helpers, never browser code;
 * - nothing in the app (main, app, features, shared, i18n, worker, sw) imports `server` or `sandbox`.
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
const SHARED_BROWSER = /^(ui|notifications|session|config|social\/(?!types\.ts)|network\/use-online|api\/(?!request\.ts|cookie-header\.ts))/
/** What the server side may take from `shared`. */
const SHARED_FOR_SERVER = /^(contracts|constants|graph|policy|format|bulk\/core)\/|^bulk\/(allowance|ports)\.ts$|^marketing\/(rates|regions)\.ts$|^api\/(cookie-header|request)\.ts$|^network\/backoff\.ts$/

/** @returns {string | undefined} why `from` may not import `to` */
function refusal(from, to) {
  if (to.layer === 'server' || to.layer === 'sandbox') {
    if (APP_SIDE.includes(from.layer)) return `the app never imports ${to.layer} code`
    return undefined
  }
  switch (from.layer) {
    case 'shared':
      if (['features', 'app', 'worker', 'sw', 'main', 'stack'].includes(to.layer))
        return `shared imports nothing above it (${to.layer})`
      return undefined
    case 'features':
      if (to.layer === 'features' && to.name !== from.name)
        return `a feature never imports another feature (${from.name} -> ${to.name}); move the shared part to src/shared`
      if (['app', 'worker', 'sw', 'main', 'stack'].includes(to.layer))
        return `a feature imports only shared and i18n, not ${to.layer}`
      return undefined
    case 'worker':
    case 'sw':
      if (to.layer === from.layer) return undefined
      if (to.layer !== 'shared') return `${from.layer} imports only pure shared code, not ${to.layer}`
      if (SHARED_BROWSER.test(to.rest)) return `${from.layer} imports only pure shared code, not shared/${to.rest}`
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

/** @type {import('eslint').Rule.RuleModule} */
const direction = {
  meta: { type: 'problem', messages: { refused: 'Import direction: {{why}}.' }, schema: [] },
  create(context) {
    const from = place(context.filename)
    if (!from) return {}
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return
      const spec = source.value
      if (!spec.startsWith('.')) return
      const to = place(path.resolve(path.dirname(context.filename), spec))
      if (!to) return
      const why = refusal(from, to)
      if (why) context.report({ node: source, messageId: 'refused', data: { why } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    }
  },
}

export const layers = { rules: { direction } }
