/**
 * Scheduled sends: `POST /messages/scheduled` creates one (its page token sealed), `PATCH` and `DELETE
 * /messages/:id/scheduled` edit or cancel it until it starts (409 once it has). The queue starts it at its time.
 */
import type { FastifyInstance } from 'fastify'
import { scheduleBody, scheduleEditBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, invalid, parse } from '../http/errors.ts'
import { cancelScheduled, createScheduled } from '../bulk/scheduled.ts'
import { editScheduled, setQueueJob } from '../repo/messages.ts'
import { messageId } from './messages.ts'
import { requireBoundPage } from './page-access.ts'

const started = () => new HttpError(409, 'The send has started already.', undefined, 'started')

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export function scheduledRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const jobs = ctx.jobs
  if (!jobs) return

  app.post('/messages/scheduled', auth, async (request, reply) => {
    const body = parse(scheduleBody, request.body)
    if (!validZone(body.time_zone)) throw invalid('time_zone', 'Unknown time zone.')
    if (body.scheduled_at < Date.now() - 60_000) throw invalid('scheduled_at', 'The time has passed.')
    const userId = currentUser(request).id
    await requireBoundPage(ctx.store, userId, body.page_id)
    const id = await createScheduled(ctx.store, jobs.box, userId, body)
    await setQueueJob(ctx.store, id, await jobs.schedule(id, body.scheduled_at))
    return reply
      .code(201)
      .send({ id, state: 'scheduled', scheduled_at: new Date(body.scheduled_at).toISOString() })
  })

  app.patch('/messages/:id/scheduled', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(scheduleEditBody, request.body)
    if (body.time_zone && !validZone(body.time_zone)) throw invalid('time_zone', 'Unknown time zone.')
    if (body.scheduled_at !== undefined && body.scheduled_at < Date.now() - 60_000)
      throw invalid('scheduled_at', 'The time has passed.')
    const edited = await editScheduled(ctx.store, currentUser(request).id, id, body)
    if (!edited) throw started()
    if (body.scheduled_at) {
      if (edited.queue_job_id) await jobs.cancel(edited.queue_job_id)
      await setQueueJob(ctx.store, id, await jobs.schedule(id, body.scheduled_at))
    }
    return { id, state: 'scheduled' }
  })

  app.delete('/messages/:id/scheduled', auth, async (request) => {
    const id = messageId(request.params)
    const cancelled = await cancelScheduled(ctx.store, currentUser(request).id, id)
    if (!cancelled) throw started()
    if (cancelled.queue_job_id) await jobs.cancel(cancelled.queue_job_id)
    return { id, state: 'cancelled' }
  })
}
