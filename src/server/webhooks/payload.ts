/**
 * The network's Messenger webhook bodies (`object: "page"`), as far as Pagecast reads them: each entry is
 * one page, its `messaging` array holds messages (and echoes of the page's own), delivery and read receipts
 * and opt-ins. Anything else in a body (standby, postbacks, reactions) is accepted and left aside. Samples
 * of every kind, with their sources, are in tests/fixtures/graph/webhooks/.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'

const id = z.union([z.string(), z.number()]).transform(String)
/** Milliseconds since the epoch; some kinds send them as strings. */
const millis = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)])

export const webhookAttachment = z.looseObject({
  type: z.string(),
  payload: z.looseObject({ url: z.string().optional() }).nullish(),
})

export const webhookMessage = z.looseObject({
  mid: z.string().min(1),
  text: z.string().optional(),
  is_echo: z.boolean().optional(),
  app_id: id.optional(),
  /** What the sending app attached to its send (`message.metadata`), echoed back. */
  metadata: z.string().optional(),
  attachments: z.array(webhookAttachment).optional(),
})

export const webhookMessaging = z.looseObject({
  sender: z.looseObject({ id: id.optional(), user_ref: z.string().optional() }),
  recipient: z.looseObject({ id: id }),
  timestamp: millis.optional(),
  message: webhookMessage.optional(),
  delivery: z.looseObject({ mids: z.array(z.string()).optional(), watermark: millis }).optional(),
  read: z.looseObject({ watermark: millis }).optional(),
  optin: z.looseObject({}).optional(),
})
export type WebhookMessaging = z.infer<typeof webhookMessaging>

/** One page's part of a body; read on its own, so an unreadable entry costs only itself. */
export const webhookEntry = z.looseObject({
  id: id,
  time: millis.optional(),
  messaging: z.array(z.unknown()).optional(),
  /** Changes of page fields (`{field, value}`), such as `message_template_status_update`. */
  changes: z.array(z.unknown()).optional(),
})

/**
 * A page template's status changed (`message_template_status_update`): approved, rejected (with the network's
 * reason), or another state the network names. Samples: tests/fixtures/graph/webhooks/template-status-*.json.
 */
export const templateStatusChange = z.looseObject({
  field: z.literal('message_template_status_update'),
  value: z.looseObject({
    event: z.string().min(1).max(64),
    message_template_id: id,
    message_template_name: z.string().min(1).max(512),
    message_template_language: z.string().min(1).max(16),
    reason: z.string().max(1000).nullish(),
    message_template_category: z.string().max(64).nullish(),
  }),
})

export type TemplateStatusChange = z.infer<typeof templateStatusChange>

export const webhookBody = z.looseObject({
  object: z.string(),
  entry: z.array(z.unknown()).default([]),
})
export type WebhookBody = z.infer<typeof webhookBody>

export const SIGNATURE_HEADER = 'x-hub-signature-256'

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' }

/** `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with the app secret. */
export function checkSignature(appSecret: string, raw: Buffer, header: string | undefined): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' }
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim())
  if (!m) return { ok: false, reason: 'malformed' }
  const expected = createHmac('sha256', appSecret).update(raw).digest()
  const given = Buffer.from(m[1]!, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { ok: true }
    : { ok: false, reason: 'mismatch' }
}

/**
 * The `signed_request` the network posts to the app's deauthorize callback: `<signature>.<payload>`, both
 * base64url, the signature the HMAC-SHA256 of the encoded payload with the app secret. Answers the app-scoped
 * id of the user who removed the app, or undefined when it is not one signed with this secret.
 */
export function parseSignedRequest(appSecret: string, signed: string): { userId: string } | undefined {
  const [sig, payload, ...rest] = signed.split('.')
  if (!sig || !payload || rest.length > 0) return undefined
  const given = Buffer.from(sig, 'base64url')
  const expected = createHmac('sha256', appSecret).update(payload).digest()
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  const { algorithm, user_id: userId } = (data ?? {}) as { algorithm?: unknown; user_id?: unknown }
  if (typeof algorithm !== 'string' || algorithm.toUpperCase() !== 'HMAC-SHA256') return undefined
  if (typeof userId !== 'string' || !/^\d{1,32}$/.test(userId)) return undefined
  return { userId }
}
