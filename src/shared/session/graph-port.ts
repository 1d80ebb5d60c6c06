/** The three Graph reads the session makes with the user token: profile, permissions, accounts. */
import { ACCOUNTS_LIMIT } from '../../core/constants/limits.ts'
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import type { Account, GraphClient, Me, PermissionGrant } from '../../core/graph/types.ts'

export interface SessionGraph {
  me(userToken: string): Promise<Me>
  permissions(userToken: string): Promise<PermissionGrant[]>
  accounts(userToken: string): Promise<Account[]>
  /** Loads what the reads need ahead of the first one, for a start that is about to make them. */
  prepare?(): void
}

/**
 * The reads go through the app's Graph client, loaded with the first of them or by `prepare` (a returning
 * visitor's start): the login route's bytes stay without it.
 */
export function sessionGraph(config: Pick<ClientConfig, 'graphUrl' | 'graphVersion'>): SessionGraph {
  let client: Promise<GraphClient> | undefined
  const graph = () =>
    (client ??= import('../../core/graph/client.ts').then(
      ({ createGraphClient }) =>
        createGraphClient({ baseUrl: config.graphUrl, version: config.graphVersion }),
      (err: unknown) => {
        // A load that failed (the connection dropped) is tried again by the next read.
        client = undefined
        throw err
      },
    ))
  return {
    prepare: () => void graph().catch(() => undefined),
    me: async (token) => (await graph()).me(token),
    permissions: async (token) => (await graph()).permissions(token),
    accounts: async (token) => (await (await graph()).accounts(token, { limit: ACCOUNTS_LIMIT })).data,
  }
}
