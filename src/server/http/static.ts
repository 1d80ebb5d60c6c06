/**
 * The built app: files from STATIC_DIR, the SPA's index.html for other navigations, and JSON 404s for
 * everything under the API. `index.html` and `sw.js` are revalidated on every load so a new version is
 * found; hashed assets never change and are cached for a year. Source maps (the original sources) are served
 * outside production only.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { cookieValue } from '../../core/api/cookie-header.ts'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { type SocialKind, startupHints } from './startup-hints.ts'

const NOT_APP = /^\/(api|sandbox|uploads)(\/|$)/
const NO_CACHE = /(^|\/)(index\.html|sw\.js|manifest\.webmanifest|registerSW\.js)$/
const SOURCE_MAP = /\.map$/i

const hasSessionCookie = (request: FastifyRequest) =>
  Boolean(cookieValue(request.headers.cookie, SESSION_COOKIE))

function looksLikeFile(path: string): boolean {
  return /\.[a-z0-9]{1,8}$/i.test(path)
}

export async function installStatic(
  app: FastifyInstance,
  staticDir: string,
  social: SocialKind,
  { sourceMaps }: { sourceMaps: boolean },
): Promise<void> {
  const root = resolve(staticDir)
  const hasApp = () => existsSync(resolve(root, 'index.html'))
  if (existsSync(root)) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each text asset (scripts/precompress.ts).
      preCompressed: true,
      cacheControl: false,
      allowedPath: (path) => sourceMaps || !SOURCE_MAP.test(path),
      setHeaders(res, path) {
        if (NO_CACHE.test(path)) res.setHeader('Cache-Control', 'no-cache')
        else if (/[\\/]assets[\\/]/.test(path))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
        else res.setHeader('Cache-Control', 'public, max-age=3600')
      },
    })
  }

  const hints = startupHints(root, social)
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/'
  const sendApp = (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasApp()) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The app is not built: ${root}/index.html is missing. Run \`npm run build\` (or set STATIC_DIR).`,
        )
    }
    // The code this visitor is about to need, named up front (src/server/http/startup-hints.ts).
    const link = hints({ returning: hasSessionCookie(request) })
    if (link) reply.header('Link', link)
    return reply.header('Cache-Control', 'no-cache').header('Vary', 'Cookie').sendFile('index.html', root)
  }

  app.get('/', (request, reply) => sendApp(request, reply))

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request)
    const navigation =
      (request.method === 'GET' || request.method === 'HEAD') && !NOT_APP.test(path) && !looksLikeFile(path)
    if (navigation) return sendApp(request, reply)
    return reply.code(404).send({ message: `No route for ${request.method} ${path}` })
  })
}
