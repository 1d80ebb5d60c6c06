/**
 * The client configuration (`GET /api/v2/config`), fetched once per page load and shared by everyone. It is
 * public (no secret ever goes there), so the last good copy is kept in localStorage: a returning visitor,
 * online or offline, starts from it.
 */
import { use } from 'react'
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import { apiRequest } from '../../core/api/request.ts'

const CACHE_KEY = 'pagecast-client-config'

let pending: Promise<ClientConfig> | undefined
let loaded: ClientConfig | undefined

const isText = (v: unknown): v is string => typeof v === 'string'

/** Mirrors the zod contract without loading it on the start-up path. */
export function isClientConfig(v: unknown): v is ClientConfig {
  if (typeof v !== 'object' || v === null) return false
  const c = v as Record<string, unknown>
  return (
    (c.social === 'facebook' || c.social === 'sandbox') &&
    isText(c.fbAppId) &&
    isText(c.graphUrl) &&
    isText(c.graphVersion) &&
    /^v\d+\.\d+$/.test(c.graphVersion) &&
    (c.messagingPolicy === 'current' || c.messagingPolicy === 'legacy') &&
    typeof c.humanAgentEnabled === 'boolean' &&
    isText(c.supportUrl) &&
    isText(c.affiliateSignupUrl) &&
    isText(c.affiliateLoginUrl) &&
    typeof c.pacingScale === 'number' &&
    c.pacingScale > 0 &&
    c.pacingScale <= 1
  )
}

export function cachedClientConfig(): ClientConfig | undefined {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CACHE_KEY) ?? 'null')
    return isClientConfig(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

async function fetchConfig(): Promise<ClientConfig> {
  const body = await apiRequest('/config', { cache: 'no-store' })
  if (!isClientConfig(body)) throw new TypeError('config: unexpected answer')
  localStorage.setItem(CACHE_KEY, JSON.stringify(body))
  return body
}

/**
 * The saved copy answers at once when there is one (a returning visitor starts without waiting for the
 * network) and the fresh one replaces it in the background for the next start; otherwise the network
 * answers, and the saved copy is the fallback when it fails.
 */
export function loadClientConfig(): Promise<ClientConfig> {
  if (pending) return pending
  const cached = cachedClientConfig()
  const fresh = fetchConfig()
  if (cached) {
    fresh.catch(() => undefined)
    loaded = cached
    pending = Promise.resolve(cached)
    return pending
  }
  pending = fresh
    .then((config) => (loaded = config))
    .catch((err: unknown) => {
      // A failed start-up fetch must be retried on the next call, not cached forever.
      pending = undefined
      throw err
    })
  return pending
}

/** Suspends until the config is loaded; main.tsx loads it before the first render, so this rarely waits. */
export function useClientConfig(): ClientConfig {
  return loaded ?? use(loadClientConfig())
}
