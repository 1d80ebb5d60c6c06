/**
 * Web Push: the public VAPID key, the device's subscription (one per device, keyed by its endpoint), and
 * the owner's notification settings. An endpoint must be a browser's push service (`push/endpoints.ts`);
 * one another account holds is refused (409 `endpoint_taken`), never moved to the caller.
 */
import type { FastifyInstance } from 'fastify'
import {
  isPushLocale,
  pushSettings,
  pushSubscriptionBody,
  pushUnsubscribeBody,
} from '../../core/contracts/push.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { deviceLabel } from '../http/device-label.ts'
import { HttpError, invalid, parse } from '../http/errors.ts'
import { endpointRefusal } from '../push/endpoints.ts'
import {
  deleteSubscription,
  hasSubscription,
  hideTextOf,
  saveSubscription,
  setHideText,
} from '../repo/push.ts'

export function pushRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.get('/push/key', auth, async () => ({ publicKey: ctx.vapid.publicKey }))

  app.put('/push/subscription', auth, async (request, reply) => {
    const body = parse(pushSubscriptionBody, request.body)
    const refusal = endpointRefusal(body.endpoint, ctx.config)
    if (refusal) throw invalid('endpoint', refusal)
    const user = currentUser(request)
    const locale = body.locale && isPushLocale(body.locale) ? body.locale : 'en'
    if (body.refresh === true && !(await hasSubscription(db, user.id, body.endpoint)))
      return reply.code(200).send({ ok: true, stored: false })
    const saved = await saveSubscription(db, user.id, request.authSessionId, {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh.replace(/=+$/, ''),
      auth: body.keys.auth.replace(/=+$/, ''),
      device: body.device ?? deviceLabel(request.headers['user-agent']),
      locale,
    })
    if (!saved)
      throw new HttpError(
        409,
        'This push subscription belongs to another account: the browser must make a new one.',
        undefined,
        'endpoint_taken',
      )
    return reply.code(200).send({ ok: true, stored: true })
  })

  app.delete('/push/subscription', auth, async (request) => {
    const body = parse(pushUnsubscribeBody, request.body)
    const removed = await deleteSubscription(db, currentUser(request).id, body.endpoint)
    return { removed }
  })

  app.get('/push/settings', auth, async (request) => ({
    hideText: await hideTextOf(db, currentUser(request).id),
  }))

  app.put('/push/settings', auth, async (request) => {
    const body = parse(pushSettings, request.body)
    await setHideText(db, currentUser(request).id, body.hideText)
    return { hideText: body.hideText }
  })
}
