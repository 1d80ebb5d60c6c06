/**
 * Web Push: the public VAPID key, the device's subscription (one per device, keyed by its endpoint), and
 * the owner's notification settings.
 */
import type { FastifyInstance } from 'fastify'
import {
  isPushLocale,
  pushSettings,
  pushSubscriptionBody,
  pushUnsubscribeBody,
} from '../../shared/contracts/push.ts'
import type { ServerConfig } from '../config.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { deviceLabel } from '../http/device-label.ts'
import { invalid, parse } from '../http/errors.ts'
import {
  deleteSubscription,
  hasSubscription,
  hideTextOf,
  saveSubscription,
  setHideText,
} from '../repo/push.ts'

/** Where the sandbox's push service listens; only with the sandbox on is a plain-http endpoint accepted. */
export const SANDBOX_PUSH_PATH = '/sandbox/push/'

/** Why an endpoint cannot be pushed to, or undefined when it can. */
export function endpointRefusal(
  endpoint: string,
  config: Pick<ServerConfig, 'publicUrl' | 'sandboxEnabled'>,
): string | undefined {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'The endpoint must be a URL.'
  }
  if (url.username || url.password) return 'The endpoint must not carry credentials.'
  if (url.protocol === 'https:') return undefined
  if (
    config.sandboxEnabled &&
    url.protocol === 'http:' &&
    url.origin === new URL(config.publicUrl).origin &&
    url.pathname.startsWith(SANDBOX_PUSH_PATH)
  )
    return undefined
  return 'The endpoint must be an https:// URL of a push service.'
}

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
    await saveSubscription(db, user.id, request.authSessionId, {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh.replace(/=+$/, ''),
      auth: body.keys.auth.replace(/=+$/, ''),
      device: body.device ?? deviceLabel(request.headers['user-agent']),
      locale,
    })
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
