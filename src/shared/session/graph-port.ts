/** The three Graph reads the session makes with the user token: profile, permissions, accounts. */
import { ofetch } from 'ofetch'
import { ACCOUNTS_LIMIT } from '../constants/limits.ts'
import type { ClientConfig } from '../contracts/client-config.ts'
import type { Account, Me, Page, PermissionGrant } from '../graph/types.ts'

export interface SessionGraph {
  me(userToken: string): Promise<Me>
  permissions(userToken: string): Promise<PermissionGrant[]>
  accounts(userToken: string): Promise<Account[]>
}

export const ME_FIELDS = 'id,name,email,picture'
export const ACCOUNT_FIELDS = 'id,name,access_token,category,picture,fan_count,tasks'

export function sessionGraph(config: ClientConfig): SessionGraph {
  const base = `${config.graphUrl.replace(/\/$/, '')}/${config.graphVersion}`
  const get = <T>(path: string, token: string, query: Record<string, string | number> = {}) =>
    ofetch<T>(`${base}${path}`, { query: { ...query, access_token: token } })
  return {
    me: (token) => get<Me>('/me', token, { fields: ME_FIELDS }),
    permissions: async (token) => (await get<Page<PermissionGrant>>('/me/permissions', token)).data,
    accounts: async (token) =>
      (await get<Page<Account>>('/me/accounts', token, { fields: ACCOUNT_FIELDS, limit: ACCOUNTS_LIMIT }))
        .data,
  }
}
