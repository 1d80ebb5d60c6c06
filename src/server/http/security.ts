/**
 * Security headers on every response (issue 8, Safety). The CSP allows no inline script, no eval and no
 * inline style: the app's CSS is a built file. Origins of the real network are added only when it is used.
 */
import type { FastifyInstance } from 'fastify'
import type { ServerConfig } from '../config.ts'

const FB_SDK_ORIGIN = 'https://connect.facebook.net'
const FB_FRAME_ORIGINS = ['https://www.facebook.com', 'https://web.facebook.com']
/** Where the network serves profile and page pictures and message attachments. */
const FB_CDN_ORIGINS = ['https://*.fbcdn.net', 'https://platform-lookaside.fbsbx.com', 'https://*.fbsbx.com']

function externalGraphOrigin(config: ServerConfig): string | undefined {
  if (!config.GRAPH_URL) return undefined
  const origin = new URL(config.GRAPH_URL).origin
  return origin === new URL(config.publicUrl).origin ? undefined : origin
}

export function contentSecurityPolicy(config: ServerConfig): string {
  const graph = externalGraphOrigin(config)
  const realNetwork = !config.sandboxEnabled
  const media = graph ? [graph, ...(realNetwork ? FB_CDN_ORIGINS : [])] : []
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(realNetwork ? [FB_SDK_ORIGIN] : [])],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...media],
    'connect-src': [
      "'self'",
      ...(graph ? [graph] : []),
      ...(realNetwork ? [FB_SDK_ORIGIN, ...FB_FRAME_ORIGINS] : []),
    ],
    'frame-src': realNetwork ? FB_FRAME_ORIGINS : ["'none'"],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
  }
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ')
}

export function installSecurityHeaders(app: FastifyInstance, config: ServerConfig): void {
  const csp = contentSecurityPolicy(config)
  app.addHook('onSend', async (request, reply, payload) => {
    // A mounted plugin (the sandbox's pages) may set a policy of its own; it is never weaker by default.
    if (!reply.hasHeader('content-security-policy')) reply.header('Content-Security-Policy', csp)
    reply.header('X-Content-Type-Options', 'nosniff')
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    // The login popup must be able to post its result back to the window that opened it.
    reply.header('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
    reply.header('X-Frame-Options', 'DENY')
    reply.header('x-request-id', request.id)
    // Answers about one user are never stored by a browser or a shared cache.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store')
    if (request.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    return payload
  })
}
