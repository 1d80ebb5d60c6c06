/**
 * Page tokens at rest: sealed with AES-256-GCM (a fresh 12-byte nonce per token, the 16-byte tag checked on
 * opening). The key comes from `TOKEN_ENCRYPTION_KEY` (32 bytes, base64); without it a key is generated once
 * into `DATA_DIR/token-encryption.key` (mode 0600). Production with a PostgreSQL server must set it: several
 * instances share the database and must share the key, and a key beside the data would be no protection.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

const NONCE_BYTES = 12
const TAG_BYTES = 16
export const KEY_FILE = 'token-encryption.key'

export interface TokenBox {
  seal(token: string): Buffer
  open(sealed: Uint8Array): string
}

export class TokenKeyError extends Error {}

export function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64')
  if (key.length !== 32) throw new TokenKeyError('TOKEN_ENCRYPTION_KEY must be 32 bytes, base64-encoded')
  return key
}

export function tokenBox(key: Buffer): TokenBox {
  if (key.length !== 32) throw new TokenKeyError('the token key must be 32 bytes')
  return {
    seal(token) {
      const nonce = randomBytes(NONCE_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, nonce)
      const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()])
      return Buffer.concat([nonce, body, cipher.getAuthTag()])
    },
    open(sealed) {
      const data = Buffer.from(sealed)
      const nonce = data.subarray(0, NONCE_BYTES)
      const tag = data.subarray(data.length - TAG_BYTES)
      const decipher = createDecipheriv('aes-256-gcm', key, nonce)
      decipher.setAuthTag(tag)
      return Buffer.concat([
        decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}

/**
 * The key of this deployment: the configured one, or the one generated into the data folder (created on
 * first use). An in-memory data folder (tests) gets a key for the life of the process.
 */
export function loadTokenKey(config: {
  TOKEN_ENCRYPTION_KEY?: string | undefined
  DATA_DIR: string
}): Buffer {
  if (config.TOKEN_ENCRYPTION_KEY) return decodeKey(config.TOKEN_ENCRYPTION_KEY)
  if (config.DATA_DIR.startsWith('memory://')) return randomBytes(32)
  mkdirSync(config.DATA_DIR, { recursive: true })
  const file = resolve(config.DATA_DIR, KEY_FILE)
  if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'))
  const key = randomBytes(32)
  // `wx`: two processes starting together never overwrite each other's key; the loser reads the winner's.
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' })
    return key
  } catch {
    return decodeKey(readFileSync(file, 'utf8'))
  }
}
