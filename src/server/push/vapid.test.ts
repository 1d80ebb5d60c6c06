import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import webpush from 'web-push'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.ts'
import { VAPID_FILE, resolveVapidKeys } from './vapid.ts'

const production = {
  NODE_ENV: 'production',
  GRAPH_URL: 'https://graph.facebook.com',
  FB_APP_SECRET: 'a-real-app-secret',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_live_x',
  WEBHOOK_VERIFY_TOKEN: 'a-verify-token-of-its-own',
}

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as Error).message
  }
  throw new Error('the configuration was accepted')
}

describe('VAPID configuration', () => {
  const keys = webpush.generateVAPIDKeys()

  it('takes a key pair and a subject', () => {
    const config = loadConfig({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    })
    expect(resolveVapidKeys(config)).toEqual({ ...keys, subject: 'mailto:ops@example.com', source: 'config' })
  })

  it('refuses malformed keys, half a pair and a subject that is neither mailto: nor https:', () => {
    expect(refusal({ VAPID_PUBLIC_KEY: keys.privateKey, VAPID_PRIVATE_KEY: keys.privateKey })).toContain(
      'VAPID_PUBLIC_KEY',
    )
    expect(refusal({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: 'short' })).toContain(
      'VAPID_PRIVATE_KEY',
    )
    expect(refusal({ VAPID_PUBLIC_KEY: keys.publicKey })).toContain('VAPID_PRIVATE_KEY')
    expect(refusal({ VAPID_SUBJECT: 'http://example.com' })).toContain('VAPID_SUBJECT')
  })

  it('defaults the subject to an https public origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).vapidSubject).toBe('https://app.example.com')
  })

  it('refuses a production start on a shared database without keys, naming the settings', () => {
    const message = refusal({ ...production, DATABASE_URL: 'postgres://db/pagecast' })
    expect(message).toContain('VAPID_PUBLIC_KEY')
    expect(message).toContain('VAPID_PRIVATE_KEY')
    expect(() =>
      loadConfig({
        ...production,
        DATABASE_URL: 'postgres://db/pagecast',
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      }),
    ).not.toThrow()
    // One instance on its own data folder may make its keys.
    expect(() => loadConfig(production)).not.toThrow()
  })
})

describe('generated VAPID keys', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('are made on a first start into DATA_DIR/vapid.json, readable by the owner only, and kept', () => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-vapid-'))
    const config = loadConfig({ DATA_DIR: dir })
    const first = resolveVapidKeys(config)
    expect(first.source).toBe('generated')
    expect(Buffer.from(first.publicKey, 'base64url').length).toBe(65)
    const file = join(dir, VAPID_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    })
    const second = resolveVapidKeys(config)
    expect(second).toEqual({ ...first, source: 'file' })
  })

  it('stop the start when the file holds something else', () => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-vapid-'))
    writeFileSync(join(dir, VAPID_FILE), '{"publicKey":"x"}')
    expect(() => resolveVapidKeys(loadConfig({ DATA_DIR: dir }))).toThrow(/VAPID_PUBLIC_KEY/)
  })
})
