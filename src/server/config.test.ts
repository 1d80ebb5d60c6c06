import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

/** A production configuration with every credential of its own. */
const production = {
  NODE_ENV: 'production',
  FB_APP_SECRET: 'a-real-app-secret',
  WEBHOOK_VERIFY_TOKEN: 'a-verify-token-of-its-own',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_live_x',
  GRAPH_URL: 'https://graph.facebook.com',
}

const failure = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as Error).message
  }
  throw new Error('the configuration was accepted')
}

describe('the sandbox default', () => {
  it('is on in development and in tests', () => {
    expect(loadConfig({}).sandboxEnabled).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test' }).sandboxEnabled).toBe(true)
  })

  it('is off in production unless SANDBOX=true is given', () => {
    expect(loadConfig(production).sandboxEnabled).toBe(false)
    expect(
      loadConfig({ ...production, SANDBOX: 'true', SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret' })
        .sandboxEnabled,
    ).toBe(true)
  })
})

describe('a production start', () => {
  it('accepts a configuration with credentials of its own', () => {
    expect(() => loadConfig(production)).not.toThrow()
  })

  it('stops on the public default app secret, sandbox on or off', () => {
    const { FB_APP_SECRET: _, ...withoutSecret } = production
    expect(failure(withoutSecret)).toMatch(/FB_APP_SECRET/)
    expect(
      failure({ ...withoutSecret, SANDBOX: 'true', SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret' }),
    ).toMatch(/FB_APP_SECRET/)
    expect(failure({ ...production, FB_APP_SECRET: 'sandbox-secret' })).toMatch(/FB_APP_SECRET/)
  })

  it('stops on the public default webhook secret while the sandbox or its payments are used', () => {
    expect(failure({ ...production, SANDBOX: 'true' })).toMatch(/SANDBOX_WEBHOOK_SECRET/)
    expect(failure({ ...production, PAYMENT_PROVIDER: 'sandbox' })).toMatch(/SANDBOX_WEBHOOK_SECRET/)
    expect(
      loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox', SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret' })
        .PAYMENT_PROVIDER,
    ).toBe('sandbox')
  })

  it('names every default credential at once', () => {
    const message = failure({ NODE_ENV: 'production', SANDBOX: 'true' })
    expect(message).toMatch(/FB_APP_SECRET/)
    expect(message).toMatch(/SANDBOX_WEBHOOK_SECRET/)
    expect(message).toMatch(/WEBHOOK_VERIFY_TOKEN/)
  })

  it('stops on the public default webhook verify token, and on a missing one', () => {
    const { WEBHOOK_VERIFY_TOKEN: _, ...withoutToken } = production
    expect(failure(withoutToken)).toMatch(/WEBHOOK_VERIFY_TOKEN is the public default/)
    expect(failure({ ...production, WEBHOOK_VERIFY_TOKEN: 'short' })).toMatch(/WEBHOOK_VERIFY_TOKEN/)
  })

  it('stops without GRAPH_URL while the sandbox is off, naming it in one sentence', () => {
    const { GRAPH_URL: _, ...withoutGraph } = production
    const message = failure(withoutGraph)
    expect(message).toMatch(/GRAPH_URL/)
    expect(message.trim().split(/(?<=\.)\s+(?=[A-Z])/)).toHaveLength(1)
    expect(failure({ ...withoutGraph, SANDBOX: 'false' })).toMatch(/GRAPH_URL/)
  })

  it('lets an explicitly enabled sandbox stand in for the network without GRAPH_URL', () => {
    const { GRAPH_URL: _, ...withoutGraph } = production
    const config = loadConfig({
      ...withoutGraph,
      SANDBOX: 'true',
      SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret',
    })
    expect(config.graphUrl).toBe('http://localhost:8080/sandbox/graph')
  })

  it('keeps the defaults outside production', () => {
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow()
    expect(() => loadConfig({ NODE_ENV: 'test', SANDBOX: 'false' })).not.toThrow()
  })
})
