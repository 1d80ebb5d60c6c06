/**
 * Stripe's webhook signature: header `t=<unix>,v1=<hex>` where v1 = HMAC-SHA256(secret, `${t}.${rawBody}`).
 * Several v1 values may be present (during secret rotation); one match is enough. Old timestamps are refused
 * so a captured event cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_TOLERANCE_S = 300

export function sign(secret: string, rawBody: string | Buffer, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')
  return `t=${timestamp},v1=${mac}`
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string }

export function verifySignature(
  secret: string,
  rawBody: string | Buffer,
  header: string | undefined,
  nowS = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { ok: false, reason: 'The Stripe-Signature header is missing.' }
  let timestamp: number | undefined
  const candidates: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value)
    if (key === 'v1' && value) candidates.push(value)
  }
  if (timestamp === undefined || candidates.length === 0)
    return { ok: false, reason: 'The Stripe-Signature header is malformed.' }
  if (Math.abs(nowS - timestamp) > SIGNATURE_TOLERANCE_S)
    return { ok: false, reason: 'The event timestamp is outside the tolerance.' }
  const expected = Buffer.from(
    createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex'),
  )
  const match = candidates.some((c) => {
    const given = Buffer.from(c)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  return match ? { ok: true } : { ok: false, reason: 'The signature does not match.' }
}
