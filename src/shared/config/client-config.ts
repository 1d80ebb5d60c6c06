/** The client configuration (`GET /api/v2/config`), fetched once per page load and shared by everyone. */
import { use } from 'react'
import { ofetch } from 'ofetch'
import { type ClientConfig, clientConfig } from '../contracts/client-config.ts'

let pending: Promise<ClientConfig> | undefined
let loaded: ClientConfig | undefined

export function loadClientConfig(): Promise<ClientConfig> {
  pending ??= ofetch('/api/v2/config', { headers: { Accept: 'application/json' }, retry: 2 })
    .then((body: unknown) => (loaded = clientConfig.parse(body)))
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
