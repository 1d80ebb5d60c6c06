/**
 * `GET /api/v2/events`: the live stream of one app tab (Server-Sent Events, see core/contracts/events.ts),
 * and `POST /api/v2/presence`: whether that tab is visible. The stream is signed in like the rest of the API;
 * since an EventSource cannot send headers, the session cookie the app keeps its bearer in is accepted too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { cookieValue } from '../../core/api/cookie-header.ts'
import { presenceBody, tabId } from '../../core/contracts/events.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { parse } from '../http/errors.ts'
import { reportPresence, tabGone } from '../repo/presence.ts'

/** What a stream may hold unread for its client before it is closed. */
const MAX_UNREAD_BYTES = 1024 * 1024

const eventId = z.string().regex(/^\d{1,15}$/, 'must be an event id (digits)')
const eventsQuery = z.object({ tab: z.optional(tabId), since: eventId.optional() }).strict()

/** The bearer from the session cookie when no Authorization header was sent (EventSource sends cookies). */
function bearerFromCookie(request: FastifyRequest): void {
  if (request.headers.authorization) return
  const token = cookieValue(request.headers.cookie, SESSION_COOKIE)
  if (token) request.headers.authorization = `Bearer ${token}`
}

export function eventRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const streamAuth = {
    preHandler: async (request: FastifyRequest) => {
      bearerFromCookie(request)
      await ctx.authenticate(request)
    },
  }

  app.get('/events', streamAuth, async (request, reply) => {
    const query = parse(eventsQuery, request.query)
    const header = request.headers['last-event-id']
    const fromHeader =
      typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? header.trim() : undefined
    const sinceText = query.since ?? fromHeader
    const since = sinceText === undefined ? undefined : Number(sinceText)
    const user = currentUser(request)

    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      // Proxies must pass each event on at once rather than buffer the response.
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
      'x-request-id': request.id,
    })
    res.write('retry: 3000\n: connected\n\n')
    let gone = false
    let end: (() => void) | undefined
    const sink = {
      userId: user.id,
      write: (text: string) => {
        if (gone || res.destroyed) return false
        // A client that stops reading is let go rather than buffered for without end; it reconnects and catches up.
        if (res.writableLength > MAX_UNREAD_BYTES) {
          res.destroy()
          return false
        }
        res.write(text)
        return true
      },
      close: () => {
        if (!res.destroyed) res.end()
      },
    }
    request.raw.on('close', () => {
      gone = true
      end?.()
      if (query.tab) void tabGone(ctx.store, user.id, query.tab).catch(() => undefined)
    })
    try {
      const stop = await ctx.events.open(sink, since)
      if (gone) stop()
      else end = stop
    } catch (err) {
      request.log.error({ err }, 'event stream could not start')
      sink.close()
    }
  })

  app.post('/presence', { preHandler: ctx.authenticate }, async (request) => {
    const body = parse(presenceBody, request.body)
    await reportPresence(ctx.store, currentUser(request).id, body.tab, body.visible)
    return { ok: true }
  })
}
