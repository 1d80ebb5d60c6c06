import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function sqlErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'sql/home').map((m) => m.message)
}

const ROUTE = `import type { Queryable } from '../db/store.ts'
export async function logout(db: Queryable, id: string) {
  await db.query('DELETE FROM sessions WHERE id = $1', [id])
}
`

describe('the home of the SQL lint', () => {
  it('refuses a statement and its call in a route, in http, in webhooks and at the top of the server', async () => {
    for (const file of [
      'src/server/routes/x.ts',
      'src/server/http/x.ts',
      'src/server/webhooks/x.ts',
      'src/server/x.ts',
    ]) {
      const errors = await sqlErrors(file, ROUTE)
      expect(errors, file).toHaveLength(2)
      expect(errors[0]).toMatch(/call the repo function that says what this `\.query\(…\)` does/)
      expect(errors[1]).toMatch(/move this statement into the repo module of its table/)
    }
  })

  it('refuses a transaction and SQL kept in a constant or a template outside the repo', async () => {
    const code = `import type { Store } from '../db/store.ts'
const LOOKUP = \`SELECT id FROM users
  WHERE facebook_id = $1\`
export const run = (store: Store, table: string) =>
  store.transaction(async (tx) => tx.exec(\`UPDATE \${table} SET seen = true\`))
export const sql = [LOOKUP, 'INSERT INTO terms (content) VALUES ($1)', 'SAVEPOINT event']
`
    const errors = await sqlErrors('src/server/payments/x.ts', code)
    expect(errors.filter((e) => /\.transaction\(…\)/.test(e))).toHaveLength(1)
    expect(errors.filter((e) => /move this statement/.test(e))).toHaveLength(4)
  })

  it('lets the repo, the stores and migrations, tests and the test harness hold SQL', async () => {
    for (const file of [
      'src/server/repo/sessions.ts',
      'src/server/db/pg-store.ts',
      'src/server/db/migrations/x.ts',
      'src/server/routes/session.test.ts',
      'src/server/testing/harness.ts',
    ])
      expect(await sqlErrors(file, ROUTE), file).toEqual([])
  })

  it('refuses a statement and its call in the bulk sender, like anywhere else outside the repo', async () => {
    for (const file of ['src/server/bulk/jobs.ts', 'src/server/bulk/x.ts']) {
      const errors = await sqlErrors(file, ROUTE)
      expect(errors, file).toHaveLength(2)
    }
  })

  it('reads a request query, a regular expression and English text as what they are', async () => {
    const code = `import type { FastifyRequest } from 'fastify'
export const read = (request: FastifyRequest) => request.query
export const match = (s: string) => /^page:(\\d+)$/.exec(s)
export const texts = ['Select a page from the list.', 'Update your card, then set it as default.', 'Delete from this device?']
`
    expect(await sqlErrors('src/server/routes/x.ts', code)).toEqual([])
  })
})
