/** Participant pictures, the long-lived token exchange and debug_token. */
import type { FastifyInstance } from 'fastify'
import { absoluteBase, authenticate, type SandboxContext } from '../context.ts'
import { errors, SandboxGraphError } from '../graph-error.ts'
import { LONG_LIVED_S } from '../state/tokens.ts'
import { avatarJpeg } from './avatar.ts'
import { avatarUrl } from './nodes.ts'

type Q = Record<string, string | undefined>

export function registerGraphMisc(app: FastifyInstance, ctx: SandboxContext, prefix: string): void {
  const { store, tokens, options } = ctx

  function nameOf(id: string): string | undefined {
    const page = store.pages.get(id)
    if (page) return page.name
    const user = store.userById(id)
    if (user) return user.name
    for (const p of store.pages.values()) {
      const conv = store.conversationWith(p.id, id)
      if (conv) return conv.customer.name
    }
    return undefined
  }

  app.get('/graph/:version/:id/picture', async (request, reply) => {
    const { id } = request.params as { id: string }
    const q = request.query as Q
    authenticate(ctx, request)
    const type = q.type === 'small' ? 'small' : 'normal'
    const url = avatarUrl(absoluteBase(request) + prefix, id, type)
    if (q.redirect === 'false' || q.redirect === '0') {
      const size = type === 'small' ? 50 : 100
      return { data: { height: size, width: size, is_silhouette: false, url } }
    }
    return reply.redirect(url, 302)
  })

  /** Where picture URLs point, like the network's CDN: no token needed, cacheable. */
  app.get('/avatar/:file', async (request, reply) => {
    const { file } = request.params as { file: string }
    // Addresses saved by an older version end in .svg: they get the same picture.
    const id = file.replace(/\.(jpg|svg)$/, '')
    const size = (request.query as Q).type === 'small' ? 50 : 100
    return reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=86400')
      .send(await avatarJpeg(id, nameOf(id), size))
  })

  app.get('/graph/:version/oauth/access_token', async (request) => {
    const q = request.query as Q
    if (q.grant_type !== 'fb_exchange_token') throw errors.invalidParam('Unsupported grant_type')
    if (q.client_id !== options.appId) {
      throw new SandboxGraphError('Error validating application. Invalid application ID.', 101)
    }
    if (q.client_secret !== options.appSecret) throw errors.appMismatch()
    const old = q.fb_exchange_token ? tokens.get(q.fb_exchange_token) : undefined
    if (!q.fb_exchange_token || !old || old.kind !== 'user' || tokens.isExpired(q.fb_exchange_token, old))
      throw errors.badToken()
    const access_token = tokens.issueUser(old.user, old.granted, old.declined, true)
    return { access_token, token_type: 'bearer', expires_in: LONG_LIVED_S }
  })

  /**
   * As the network answers it (tests/fixtures/graph/debug-token-*.json): asked with the app token only
   * (`{app-id}|{app-secret}`, 190 otherwise); a token it cannot read is `is_valid: false` with an error.
   */
  app.get('/graph/:version/debug_token', async (request) => {
    const q = request.query as Q
    if (!q.access_token) throw errors.noToken()
    if (q.access_token !== `${options.appId}|${options.appSecret}`) {
      throw new SandboxGraphError('Invalid OAuth access token signature.', 190)
    }
    const input = q.input_token ?? ''
    const info = tokens.get(input)
    if (!info) {
      return {
        data: {
          error: { code: 190, message: 'Invalid OAuth access token - Cannot parse access token' },
          is_valid: false,
          scopes: [],
        },
      }
    }
    const user = store.users[info.user]
    const roleLost = tokens.isRoleLost(input)
    const valid = !roleLost && !tokens.isExpired(input, info)
    const page = info.kind === 'page'
    return {
      data: {
        app_id: info.appId ?? options.appId,
        type: page ? 'PAGE' : 'USER',
        application: info.appId ? info.appId : 'Pagecast',
        data_access_expires_at: Math.floor((info.issuedMs + 90 * 86_400_000) / 1000),
        expires_at: page ? 0 : Math.floor(info.expiresMs / 1000),
        is_valid: valid,
        ...(page ? {} : { issued_at: Math.floor(info.issuedMs / 1000) }),
        ...(page ? { profile_id: info.pageId } : {}),
        scopes: info.granted,
        user_id: user.id,
        ...(valid
          ? {}
          : roleLost
            ? { error: { code: 190, message: errors.roleLost().message } }
            : {
                error: {
                  code: 190,
                  subcode: 463,
                  message: 'Error validating access token: Session has expired.',
                },
              }),
      },
    }
  })
}
