import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { KEY_FILE, loadTokenKey, tokenBox } from './token-box.ts'

describe('the page-token seal', () => {
  it('seals with AES-256-GCM: the token is not in the sealed bytes, each seal differs, tampering is refused', () => {
    const box = tokenBox(randomBytes(32))
    const token = 'EAAG-page-token-1234567890'
    const a = box.seal(token)
    const b = box.seal(token)
    expect(a.includes(Buffer.from(token))).toBe(false)
    expect(a.equals(b)).toBe(false)
    expect(box.open(a)).toBe(token)
    const tampered = Buffer.from(a)
    tampered[14] = tampered[14]! ^ 1
    expect(() => box.open(tampered)).toThrow()
    expect(() => tokenBox(randomBytes(32)).open(a)).toThrow()
  })

  it('generates its key once into DATA_DIR (owner-only) and reads the same key back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagecast-key-'))
    try {
      const first = loadTokenKey({ DATA_DIR: dir })
      const second = loadTokenKey({ DATA_DIR: dir })
      expect(first.equals(second)).toBe(true)
      expect(first.length).toBe(32)
      expect(statSync(join(dir, KEY_FILE)).mode & 0o077).toBe(0)
      expect(readFileSync(join(dir, KEY_FILE), 'utf8').trim()).toBe(first.toString('base64'))
      const configured = randomBytes(32)
      expect(
        loadTokenKey({ DATA_DIR: dir, TOKEN_ENCRYPTION_KEY: configured.toString('base64') }).equals(
          configured,
        ),
      ).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('is required in production with a PostgreSQL server, and must be 32 bytes', () => {
    // Production on PostgreSQL also needs its own webhook verify token and the shared Web Push keys (config.ts).
    const vapid = createECDH('prime256v1')
    vapid.generateKeys()
    const production = {
      NODE_ENV: 'production',
      GRAPH_URL: 'https://graph.facebook.com',
      FB_APP_SECRET: 'a-real-secret',
      SANDBOX_WEBHOOK_SECRET: 'whsec_real_secret',
      DATABASE_URL: 'postgres://db/pagecast',
      WEBHOOK_VERIFY_TOKEN: 'a-verify-token-of-its-own',
      VAPID_PUBLIC_KEY: vapid.getPublicKey('base64url', 'uncompressed'),
      VAPID_PRIVATE_KEY: vapid.getPrivateKey('base64url'),
    }
    expect(() => loadConfig(production)).toThrow(/TOKEN_ENCRYPTION_KEY is required/)
    expect(() => loadConfig({ ...production, TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(/32 bytes/)
    expect(
      loadConfig({ ...production, TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') }).NODE_ENV,
    ).toBe('production')
  })
})
