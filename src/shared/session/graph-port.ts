/** The three Graph reads the session makes with the user token: profile, permissions, accounts. */
import { ACCOUNTS_LIMIT } from '../constants/limits.ts'
import type { ClientConfig } from '../contracts/client-config.ts'
import { ACCOUNT_FIELDS, ME_FIELDS } from '../graph/fields.ts'
import type { Account, Me, Page, PermissionGrant } from '../graph/types.ts'

export interface SessionGraph {
  me(userToken: string): Promise<Me>
  permissions(userToken: string): Promise<PermissionGrant[]>
  accounts(userToken: string): Promise<Account[]>
}

export function sessionGraph(config: ClientConfig): SessionGraph {
  const base = `${config.graphUrl.replace(/\/$/, '')}/${config.graphVersion}`
  // Plain fetch: these reads run on the login path, which stays free of the full API client.
  const get = async <T>(path: string, token: string, query: Record<string, string | number> = {}) => {
    const url = new URL(`${base}${path}`, location.origin)
    for (const [key, value] of Object.entries({ ...query, access_token: token }))
      url.searchParams.set(key, String(value))
    const res = await fetch(url, { headers: { Accept: 'application/json' } })
    if (!res.ok) throw new Error(`Graph ${path}: HTTP ${res.status}`)
    return (await res.json()) as T
  }
  return {
    me: (token) => get<Me>('/me', token, { fields: ME_FIELDS }),
    permissions: async (token) => (await get<Page<PermissionGrant>>('/me/permissions', token)).data,
    accounts: async (token) =>
      (await get<Page<Account>>('/me/accounts', token, { fields: ACCOUNT_FIELDS, limit: ACCOUNTS_LIMIT }))
        .data,
  }
}
