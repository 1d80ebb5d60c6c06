/**
 * A page's send history and the report of each send in it, readable on any device of the owner:
 * `GET /pages/:pageId/send-history`, `GET /messages/:id/report` and `GET /messages/:id/report.csv`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { historyQuery, reportQuery } from '../../core/contracts/send-history.ts'
import { csvDocument } from '../../core/format/csv.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { notFound, parse } from '../http/errors.ts'
import { messagePage } from '../repo/messages.ts'
import { listHistory, reportRecipients, sendReport } from '../repo/send-history.ts'
import { answering, messageId } from './messages.ts'
import { requireBoundPage } from './page-access.ts'

const PAGE_ID = /^\d{1,64}$/

/** The CSV's columns, in English like the API's other machine-readable answers; times are ISO 8601 in UTC (`Z`). */
const CSV_HEADER = ['recipient_id', 'name', 'status', 'reason', 'sent_at_utc', 'delivered', 'read', 'replied']

export function sendHistoryRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }

  /** The send's page must still be the caller's: its report goes with the page. */
  async function ownReport(request: FastifyRequest): Promise<{ id: string; userId: string }> {
    const id = messageId(request.params)
    const userId = currentUser(request).id
    const pageId = await messagePage(ctx.store, id, userId)
    if (!pageId) throw notFound('Message not found.')
    await requireBoundPage(ctx.store, userId, pageId)
    return { id, userId }
  }

  app.get('/pages/:pageId/send-history', auth, async (request) => {
    const { pageId } = request.params as { pageId: string }
    if (!PAGE_ID.test(pageId)) throw notFound('Page not found.')
    const query = parse(historyQuery, request.query)
    const userId = currentUser(request).id
    await requireBoundPage(ctx.store, userId, pageId)
    return listHistory(ctx.store, userId, pageId, query)
  })

  app.get('/messages/:id/report', auth, async (request) => {
    const query = parse(reportQuery, request.query)
    const { id, userId } = await ownReport(request)
    return answering(sendReport(ctx.store, userId, id, query))
  })

  app.get('/messages/:id/report.csv', auth, async (request, reply) => {
    parse(z.object({}).strict(), request.query)
    const { id, userId } = await ownReport(request)
    const { recipients } = await answering(reportRecipients(ctx.store, userId, id))
    const rows = recipients.map((r) => [
      r.recipient_id,
      r.name,
      r.status,
      r.reason,
      r.sent_at,
      r.delivered,
      r.read,
      r.replied,
    ])
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="send-${id}.csv"`)
      .send(csvDocument(CSV_HEADER, rows))
  })
}
