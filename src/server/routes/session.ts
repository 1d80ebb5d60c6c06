/**
 * Public routes: the client configuration and login (`POST /api/v2/login`,
 * docs/product-rules.md#product-api).
 */
import type { FastifyInstance } from 'fastify'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { type LoginResponse, loginBody } from '../../core/contracts/api.ts'
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import type { ServerConfig } from '../config.ts'
import type { ApiContext } from '../context.ts'
import { GraphCallError } from '../graph/graph-api.ts'
import { bearer, currentSessionId } from '../http/auth.ts'
import { HttpError, parse, unauthorized } from '../http/errors.ts'
import { setSessionCookie } from '../http/session-cookie.ts'
import { deleteSession } from '../repo/sessions.ts'
import { logIn } from '../repo/users.ts'

export function clientConfigOf(config: ServerConfig): ClientConfig {
  const sandbox = config.sandboxEnabled && !config.GRAPH_URL
  return {
    social: sandbox ? 'sandbox' : 'facebook',
    fbAppId: config.FB_APP_ID,
    graphUrl: sandbox ? '/sandbox/graph' : config.graphUrl,
    graphVersion: config.GRAPH_VERSION,
    messagingPolicy: config.MESSAGING_POLICY,
    humanAgentEnabled: config.HUMAN_AGENT_ENABLED,
    supportUrl: config.SUPPORT_URL,
    affiliateSignupUrl: config.AFFILIATE_SIGNUP_URL,
    affiliateLoginUrl: config.AFFILIATE_LOGIN_URL,
    pacingScale: config.sandboxEnabled ? config.PACING_SCALE : 1,
  }
}

function graphFailure(err: unknown): HttpError {
  if (err instanceof GraphCallError && (err.status === 0 || err.status >= 500)) {
    return new HttpError(502, 'The social network could not be reached. Please try again.')
  }
  const detail = err instanceof Error ? ` (${err.message})` : ''
  return unauthorized(`The access token could not be verified with the social network${detail}.`)
}

export function sessionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const clientConfig = clientConfigOf(ctx.config)
  app.get('/config', async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(clientConfig))

  app.post(
    '/login',
    { config: { rateLimit: { max: ctx.rateLimits.login, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const body = parse(loginBody, request.body)
      const [me, grants] = await Promise.all([
        ctx.graph.me(body.access_token),
        ctx.graph.permissions(body.access_token),
      ]).catch((err: unknown) => {
        throw graphFailure(err)
      })
      if (!me.id || !/^\d{1,32}$/.test(me.id))
        throw unauthorized('The social network did not identify the user.')
      // A required permission the network also lists as declined counts as missing
      // (docs/product-rules.md#login-permissions).
      const granted = new Set(grants.filter((g) => g.status === 'granted').map((g) => g.permission))
      const declined = new Set(grants.filter((g) => g.status !== 'granted').map((g) => g.permission))
      const missing = REQUIRED_PERMISSIONS.filter((p) => !granted.has(p) || declined.has(p))
      if (missing.length > 0)
        throw unauthorized(`Login refused: these permissions were not granted: ${missing.join(', ')}.`)

      const login = await logIn(ctx.store, {
        profile: {
          facebookId: me.id,
          name: me.name ?? '',
          email: me.email ?? null,
          pictureUrl: me.picture?.data.url ?? null,
        },
        referral: body.referral,
        coupon: body.coupon,
        idleDays: ctx.config.SESSION_IDLE_DAYS,
        userAgent: request.headers['user-agent'],
        current: bearer(request),
      })
      const { token, user, subscription } = login
      const response: LoginResponse = {
        data: { token, user: { ...user, id: String(user.id), subscription } },
      }
      request.log.info({ userId: response.data.user.id }, 'login')
      setSessionCookie(request, reply, response.data.token, ctx.config.SESSION_IDLE_DAYS)
      return response
    },
  )

  /** Ends the session server-side: the token stops working everywhere, not only in this browser. */
  app.post('/logout', { preHandler: ctx.authenticate }, async (request) => {
    await deleteSession(ctx.store, currentSessionId(request))
    return { ok: true }
  })
}
