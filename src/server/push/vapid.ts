/**
 * The VAPID keys the server signs its pushes with. Configured keys win; without them a first start makes a
 * pair and keeps it in `DATA_DIR/vapid.json` (readable by this user only), so subscriptions made against
 * the public key keep working after a restart. An in-memory data folder (tests) gets a pair per process.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import webpush from 'web-push'
import type { ServerConfig } from '../config.ts'

export interface VapidKeys {
  publicKey: string
  privateKey: string
  subject: string
}

export const VAPID_FILE = 'vapid.json'

function isKeyPair(value: unknown): value is { publicKey: string; privateKey: string } {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.publicKey === 'string' &&
    Buffer.from(v.publicKey, 'base64url').length === 65 &&
    typeof v.privateKey === 'string' &&
    Buffer.from(v.privateKey, 'base64url').length === 32
  )
}

export function resolveVapidKeys(
  config: Pick<ServerConfig, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'DATA_DIR' | 'vapidSubject'>,
): VapidKeys & { source: 'config' | 'file' | 'generated' | 'memory' } {
  const subject = config.vapidSubject
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return {
      publicKey: config.VAPID_PUBLIC_KEY,
      privateKey: config.VAPID_PRIVATE_KEY,
      subject,
      source: 'config',
    }
  if (config.DATA_DIR.startsWith('memory://'))
    return { ...webpush.generateVAPIDKeys(), subject, source: 'memory' }

  const dir = resolve(config.DATA_DIR)
  const file = join(dir, VAPID_FILE)
  let stored: unknown
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${file} cannot be read: ${String(err)}`)
  }
  if (stored !== undefined) {
    if (!isKeyPair(stored))
      throw new Error(
        `${file} does not hold a VAPID key pair: remove it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`,
      )
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject, source: 'file' }
  }
  const keys = webpush.generateVAPIDKeys()
  mkdirSync(dir, { recursive: true })
  // `wx`: two processes starting together on a new folder cannot both write (the data folder lock stops the second).
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return { ...keys, subject, source: 'generated' }
}
