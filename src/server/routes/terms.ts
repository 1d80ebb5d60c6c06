/** The latest published terms (public: the gate shows them before anything else). */
import type { FastifyInstance } from 'fastify'
import type { Terms } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { notFound } from '../http/errors.ts'
import { latestTerms } from '../repo/terms.ts'

export function termsRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/term-and-condition', async (_request, reply) => {
    const row = await latestTerms(ctx.store)
    if (!row) throw notFound('No terms have been published.')
    const body: Terms & { version: number } = {
      content: row.content,
      created_at: new Date(row.created_at).toISOString(),
      version: row.id,
    }
    return reply.header('Cache-Control', 'no-cache').send(body)
  })
}
