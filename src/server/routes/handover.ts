/**
 * The hand-over of a bulk job between the device and the server
 * (docs/architecture.md#the-send-goes-on-without-the-phone): `POST /messages/:id/handover` gives the server
 * the job, its undelivered results, its uncertain sends and the page token (sealed at rest, never answered
 * back); `POST /messages/:id/take-back` returns it to the device once any send the server has in flight is
 * recorded.
 */
import type { FastifyInstance } from 'fastify'
import { handoverBody, leaseBody, reserveBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, parse } from '../http/errors.ts'
import { handOver, KindMismatch, LeaseConflict, takeBack } from '../bulk/jobs.ts'
import { holdLease, reserve } from '../bulk/lease.ts'
import { liveMessagePage } from '../repo/messages.ts'
import { answering, messageId } from './messages.ts'
import { requireBoundPage } from './page-access.ts'

/** The answer to a hand-over whose lease is not the job's: the device must read the job again. */
export function conflict(err: LeaseConflict): HttpError {
  return new HttpError(
    409,
    err.message,
    { lease: [String(err.lease)], sender: [err.sender] },
    'lease_conflict',
  )
}

/** The answer to a hand-over of a job as another kind than it was created: nothing was handed over. */
export function kindConflict(err: KindMismatch): HttpError {
  return new HttpError(409, err.message, { kind: [err.kind] }, 'kind_mismatch')
}

/** The lease's conflicts and kind refusals as answers; anything else as it is. */
export function leaseAnswer(err: unknown): unknown {
  if (err instanceof LeaseConflict) return conflict(err)
  if (err instanceof KindMismatch) return kindConflict(err)
  return err
}

export function handoverRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const leaseMs = ctx.config.JOB_LEASE_SECONDS * 1000

  // The device's lease (docs/architecture.md#a-lease-not-a-goodbye): taken and renewed by its heartbeat.
  app.post('/messages/:id/lease', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(leaseBody, request.body)
    try {
      return {
        id,
        ...(await answering(holdLease(ctx.store, ctx.box, currentUser(request).id, id, body, leaseMs))),
      }
    } catch (err) {
      throw leaseAnswer(err)
    }
  })

  // The holder's write-ahead before it sends: refused (409) unless its lease is still running.
  app.post('/messages/:id/reserve', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(reserveBody, request.body)
    try {
      return { id, ...(await answering(reserve(ctx.store, currentUser(request).id, id, body, leaseMs))) }
    } catch (err) {
      throw leaseAnswer(err)
    }
  })

  const jobs = ctx.jobs
  if (!jobs) return

  app.post('/messages/:id/handover', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(handoverBody, request.body)
    const userId = currentUser(request).id
    // The server sends only for an owner who still manages the page.
    const pageId = await liveMessagePage(ctx.store, id, userId)
    if (pageId) await requireBoundPage(ctx.store, userId, pageId)
    try {
      const { lease } = await answering(handOver(ctx.store, jobs.box, userId, id, body, jobs.pacingFloorMs))
      await jobs.kick(id)
      return { id, lease, sender: 'server' }
    } catch (err) {
      throw leaseAnswer(err)
    }
  })

  app.post('/messages/:id/take-back', auth, async (request) => {
    const id = messageId(request.params)
    return { id, ...(await answering(takeBack(ctx.store, currentUser(request).id, id, 200, leaseMs))) }
  })
}
