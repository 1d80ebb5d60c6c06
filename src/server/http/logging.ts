/**
 * Structured logs with request ids, never carrying a credential: authorisation and cookie headers are
 * redacted, and token-bearing query parameters (the Graph's `access_token`) are masked in logged URLs.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyServerOptions } from 'fastify'
import type { ServerConfig } from '../config.ts'

const SECRET_PARAMS = /([?&](?:access_token|fb_exchange_token|client_secret|input_token|token|code)=)[^&#]*/gi

export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]')
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

export function loggingOptions(
  config: ServerConfig,
  stream?: { write(line: string): void },
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader'> {
  return {
    requestIdHeader: false,
    // A caller's id is kept when it is a plain token (so a proxy's id follows the request), otherwise replaced.
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(stream ? { stream } : {}),
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'req.headers["stripe-signature"]',
                'res.headers["set-cookie"]',
                'access_token',
                'token',
                'page_token',
                '*.page_token',
                'req.body.page_token',
                '*.access_token',
                '*.token',
              ],
              censor: '[redacted]',
            },
            serializers: {
              req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
                method: req.method,
                url: maskUrl(req.url),
                remoteAddress: req.ip,
              }),
            },
          },
  }
}
