/** Inspection and fault API for tests and demos (documented in the README). */
import type { FastifyInstance } from 'fastify'
import { REQUIRED_PERMISSIONS } from '../../shared/constants/limits.ts'
import type { SandboxContext } from '../context.ts'
import { mergeFaults, NO_FAULTS } from '../faults.ts'
import type { UserKey } from '../state/demo.ts'

export function isUserKey(v: unknown): v is UserKey {
  return v === 'demo' || v === 'second'
}

export function registerInspect(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/health', async () => ({ ok: true }))

  app.get('/sent', async () => ({ data: ctx.store.sent }))

  app.get('/faults', async () => ctx.faults)
  app.post('/faults', async (request) => {
    ctx.faults = mergeFaults(ctx.faults, request.body)
    return ctx.faults
  })

  app.post('/reset', async (request) => {
    const body = (request.body ?? {}) as { rebase?: boolean }
    if (body.rebase === true) ctx.store.startMs = Date.now()
    ctx.store.load()
    ctx.faults = { ...NO_FAULTS }
    ctx.push.reset()
    ctx.tokens.clearExpired()
    return { ok: true, start: new Date(ctx.store.startMs).toISOString() }
  })

  app.post('/token', async (request, reply) => {
    const body = (request.body ?? {}) as {
      user?: unknown
      scopes?: unknown
      declined?: unknown
      app_id?: unknown
    }
    const user = body.user === undefined ? 'demo' : body.user
    if (!isUserKey(user)) return reply.status(400).send({ error: 'user must be "demo" or "second"' })
    const scopes = Array.isArray(body.scopes)
      ? body.scopes.filter((s): s is string => typeof s === 'string')
      : [...REQUIRED_PERMISSIONS]
    const declined = Array.isArray(body.declined)
      ? body.declined.filter((s): s is string => typeof s === 'string')
      : []
    // `app_id`: a token the network gave another app (debug_token reports that app).
    const appId = typeof body.app_id === 'string' && body.app_id ? body.app_id : undefined
    const access_token = ctx.tokens.issueUser(user, scopes, declined, false, appId)
    return { access_token, user_id: ctx.store.users[user].id }
  })

  app.post('/tokens/expire', async (request) => {
    const body = (request.body ?? {}) as { token?: unknown; page_id?: unknown; revoke?: unknown }
    const pageId = typeof body.page_id === 'string' ? body.page_id : undefined
    const expired = ctx.tokens.expire({
      token: typeof body.token === 'string' ? body.token : undefined,
      page_id: pageId,
    })
    // revoke: the user lost the page's messaging role, so the accounts list shows it without a token
    // (false gives the role back); /reset restores the demo pages.
    const page = pageId === undefined ? undefined : ctx.store.pages.get(pageId)
    if (page && typeof body.revoke === 'boolean') page.hasToken = !body.revoke
    return { expired }
  })
}
