/**
 * The sandbox's Web Push service: `POST /sandbox/push/:id` takes pushes as a real push service does (the
 * Web Push protocol: an aes128gcm body, the TTL, Urgency and Topic headers, a VAPID `Authorization:
 * vapid t=<JWT>, k=<key>` checked against its signature) and records what it received for tests, without
 * decrypting the body (what a push says is checked where it is shown, in the service worker).
 *
 * Inspection: `GET /sandbox/push` (every push, oldest first), `GET /sandbox/push/:id`; faults: `POST
 * /sandbox/push/:id/answer {status}` makes the endpoint answer that status from then on (410 or 404 say
 * the subscription is gone, as a push service does for an unsubscribed browser); `/sandbox/reset` clears
 * both.
 */
import { createPublicKey, verify } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

export interface RecordedPush {
  endpointId: string
  at: string
  ttl: number | null
  urgency: string | null
  topic: string | null
  contentEncoding: string | null
  /** The encrypted body's length in bytes. */
  size: number
  /** The JWT's `aud`: the push service's origin. */
  audience: string | null
  /** The JWT's `sub`: the sender's contact. */
  subject: string | null
  /** The JWT's `exp` (seconds since the epoch). */
  expires: number | null
  /** The `k=` public key of the VAPID header (the app's applicationServerKey). */
  vapidKey: string | null
}

export class PushServiceState {
  received: RecordedPush[] = []
  answers = new Map<string, number>()
  reset(): void {
    this.received = []
    this.answers.clear()
  }
}

interface Vapid {
  header: { alg?: string; typ?: string }
  claims: { aud?: string; sub?: string; exp?: number }
  key: string
}

function b64json(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
}

/** The VAPID header's JWT and key, checked: ES256 signed by the key it names. Why not, otherwise. */
export function readVapid(authorization: string | undefined): Vapid | string {
  if (!authorization) return 'missing Authorization'
  const m = /^vapid\s+(.+)$/i.exec(authorization.trim())
  if (!m) return 'Authorization is not vapid'
  const params = Object.fromEntries(
    m[1]!.split(',').map((p) => {
      const [k, ...v] = p.trim().split('=')
      return [k!.trim(), v.join('=').trim()]
    }),
  )
  const token = params.t
  const key = params.k
  if (!token || !key) return 'vapid needs t= and k='
  const parts = token.split('.')
  if (parts.length !== 3) return 'the JWT has not three parts'
  const raw = Buffer.from(key, 'base64url')
  if (raw.length !== 65 || raw[0] !== 4) return 'k= is not an uncompressed P-256 key'
  try {
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    })
    const ok = verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(parts[2]!, 'base64url'),
    )
    if (!ok) return 'the JWT signature does not match k='
    const header = b64json(parts[0]!) as Vapid['header']
    const claims = b64json(parts[1]!) as Vapid['claims']
    if (header.alg !== 'ES256') return 'the JWT is not ES256'
    return { header, claims, key }
  } catch {
    return 'the JWT cannot be read'
  }
}

const headerOf = (value: string | string[] | undefined): string | null =>
  typeof value === 'string' ? value : Array.isArray(value) ? (value[0] ?? null) : null

export function registerPushService(app: FastifyInstance, state: PushServiceState): void {
  void app.register(async (scope) => {
    // A push body is opaque bytes; only this scope takes them.
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    )

    scope.get('/push', async () => ({ data: state.received }))

    scope.get<{ Params: { id: string } }>('/push/:id', async (request) => ({
      data: state.received.filter((p) => p.endpointId === request.params.id),
    }))

    scope.post<{ Params: { id: string } }>('/push/:id/answer', async (request, reply) => {
      const status = (request.body as { status?: unknown } | undefined)?.status
      if (typeof status !== 'number' || status < 200 || status > 599)
        return reply.code(400).send({ error: 'status must be an HTTP status' })
      state.answers.set(request.params.id, status)
      return { ok: true }
    })

    scope.post<{ Params: { id: string } }>('/push/:id', async (request, reply) => {
      const id = request.params.id
      const answer = state.answers.get(id)
      if (answer !== undefined && (answer < 200 || answer > 299))
        return reply
          .code(answer)
          .send({ error: answer === 410 || answer === 404 ? 'subscription gone' : 'refused' })
      const vapid = readVapid(request.headers.authorization)
      if (typeof vapid === 'string') return reply.code(403).send({ error: vapid })
      const ttlHeader = headerOf(request.headers.ttl)
      if (ttlHeader === null || !/^\d+$/.test(ttlHeader))
        return reply.code(400).send({ error: 'TTL header required' })
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const encoding = headerOf(request.headers['content-encoding'])
      if (body.length > 0 && encoding !== 'aes128gcm')
        return reply.code(415).send({ error: 'Content-Encoding must be aes128gcm' })
      if (body.length > 4096) return reply.code(413).send({ error: 'payload too large' })
      state.received.push({
        endpointId: id,
        at: new Date().toISOString(),
        ttl: Number(ttlHeader),
        urgency: headerOf(request.headers.urgency),
        topic: headerOf(request.headers.topic),
        contentEncoding: encoding,
        size: body.length,
        audience: vapid.claims.aud ?? null,
        subject: vapid.claims.sub ?? null,
        expires: vapid.claims.exp ?? null,
        vapidKey: vapid.key,
      })
      return reply.code(201).header('location', `${request.url}/${state.received.length}`).send()
    })
  })
}
