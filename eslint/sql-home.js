// @ts-check
/**
 * Where the server's SQL lives (docs/architecture.md#server-database): in `src/server/repo` (one module per table, each
 * statement in a named function) and in `src/server/db` (the stores, the migrations). Anywhere else in
 * `src/server` a call of `.query(…)` or `.transaction(…)`, or a string or template that reads as an SQL
 * statement, is refused: the code calls the repo function that says what it does. Tests and the test harness
 * (`src/server/testing`) may set rows up directly.
 */
import path from 'node:path'

const SERVER = path.resolve(import.meta.dirname, '..', 'src', 'server')

/** Where SQL belongs. */
const HOMES = ['repo', 'db']

/**
 * An SQL statement in upper case, as every statement of the server is written: a word that only starts a
 * sentence in English (`Select a page`) does not match.
 */
const STATEMENT =
  /\b(SELECT\s[\s\S]*\bFROM\b|SELECT\s+(1|now\(\))|INSERT\s+INTO|UPDATE\s+\w+(\s+AS\s+\w+)?\s+SET\b|DELETE\s+FROM|ON\s+CONFLICT|SAVEPOINT\s|CREATE\s+(TABLE|INDEX|DATABASE)|DROP\s+(TABLE|INDEX|DATABASE)|ALTER\s+TABLE|pg_notify\(|FOR\s+UPDATE\b)/

/** @param {string} file @returns {string | undefined} why this file may hold SQL, or undefined */
function allowed(file) {
  const rel = path.relative(SERVER, file)
  if (rel.startsWith('..') || path.isAbsolute(rel)) return 'outside the server'
  const top = rel.split(path.sep)[0] ?? ''
  if (HOMES.includes(top)) return 'home'
  if (/\.test\.tsx?$/.test(rel) || top === 'testing') return 'test'
  return undefined
}

/**
 * The text of a string, or of a template with each `${…}` standing for a name (`UPDATE ${table} SET`).
 * @param {any} node
 * @returns {string | undefined}
 */
function text(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node.type === 'TemplateLiteral')
    return node.quasis.map((/** @type {any} */ q) => q.value.cooked ?? q.value.raw).join(' _ ')
  return undefined
}

/** @type {import('eslint').Rule.RuleModule} */
const home = {
  meta: {
    type: 'problem',
    messages: {
      call: 'SQL lives in src/server/repo: call the repo function that says what this `.{{name}}(…)` does.',
      statement: 'SQL lives in src/server/repo: move this statement into the repo module of its table.',
    },
    schema: [],
  },
  create(context) {
    if (allowed(context.filename)) return {}
    return {
      CallExpression(node) {
        const callee = node.callee
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
          return
        const name = callee.property.name
        if (name === 'query' || name === 'transaction')
          context.report({ node: callee.property, messageId: 'call', data: { name } })
      },
      /** @param {any} node */
      Literal(node) {
        const value = text(node)
        if (value !== undefined && STATEMENT.test(value)) context.report({ node, messageId: 'statement' })
      },
      /** @param {any} node */
      TemplateLiteral(node) {
        const value = text(node)
        if (value !== undefined && STATEMENT.test(value)) context.report({ node, messageId: 'statement' })
      },
    }
  },
}

export const sql = { rules: { home } }
