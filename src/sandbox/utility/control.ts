/**
 * Inspection of utility messages for tests and demos (under /sandbox):
 * - `GET /utility/sends?page_id=`: the utility messages sent, with the template, its parameters in order and
 *   the filled text the customer reads;
 * - `GET /utility/templates?page_id=`: the pages' templates as the Graph API answers them.
 */
import type { FastifyInstance } from 'fastify'
import type { SandboxContext } from '../context.ts'
import { templateNode } from './graph.ts'

export function registerUtilityControl(app: FastifyInstance, ctx: SandboxContext): void {
  const pageOf = (q: unknown) => {
    const v = (q as Record<string, unknown> | undefined)?.page_id
    return typeof v === 'string' && v ? v : undefined
  }

  app.get('/utility/sends', async (request) => {
    const page = pageOf(request.query)
    return {
      data: ctx.utility.sends.filter((s) => !page || s.page_id === page).map(({ atMs: _ms, ...s }) => s),
    }
  })

  app.get('/utility/templates', async (request) => {
    const page = pageOf(request.query)
    return {
      data: [...ctx.utility.templates.values()]
        .filter((t) => !page || t.pageId === page)
        .map((t) => ({ page_id: t.pageId, ...templateNode(t) })),
    }
  })
}
