import { afterEach, describe, expect, it, vi } from 'vitest'
import { cachedClientConfig, isClientConfig, loadClientConfig } from './client-config.ts'

const config = {
  social: 'sandbox',
  fbAppId: '123',
  graphUrl: 'http://localhost/sandbox/graph',
  graphVersion: 'v23.0',
  messagingPolicy: 'current',
  humanAgentEnabled: false,
  supportUrl: 'https://example.test/support',
  affiliateSignupUrl: 'https://example.test/a',
  affiliateLoginUrl: 'https://example.test/b',
  pacingScale: 1,
}

afterEach(() => vi.unstubAllGlobals())

describe('client config', () => {
  it('checks the shape of the config', () => {
    expect(isClientConfig(config)).toBe(true)
    expect(isClientConfig({ ...config, graphVersion: '23' })).toBe(false)
    expect(isClientConfig({ ...config, pacingScale: 2 })).toBe(false)
  })
  it('keeps the last config and starts from it when the network fails', async () => {
    localStorage.setItem('pagecast-client-config', JSON.stringify(config))
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')))
    await expect(loadClientConfig()).resolves.toEqual(config)
    expect(cachedClientConfig()).toEqual(config)
  })
})
