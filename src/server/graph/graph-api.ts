/**
 * The few Graph calls the server itself makes: verifying a login token and exchanging a page token for a
 * long-lived one. The app secret is used only here, server-side.
 */
import type { Me, PermissionGrant } from '../../shared/graph/types.ts'

export type FetchLike = typeof fetch

export class GraphCallError extends Error {
  /** HTTP status of the network's answer; 0 when it could not be reached. */
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export interface GraphApi {
  me(token: string): Promise<Me>
  permissions(token: string): Promise<PermissionGrant[]>
  exchangeToken(token: string): Promise<string>
}

export interface GraphApiOptions {
  graphUrl: string
  version: string
  appId: string
  appSecret: string
  fetch?: FetchLike
}

export function createGraphApi(opts: GraphApiOptions): GraphApi {
  const doFetch = opts.fetch ?? fetch
  const base = `${opts.graphUrl.replace(/\/$/, '')}/${opts.version}`

  async function get<T>(path: string, params: Record<string, string>): Promise<T> {
    const url = `${base}${path}?${new URLSearchParams(params)}`
    let res: Response
    try {
      res = await doFetch(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      })
    } catch {
      throw new GraphCallError(0, 'The social network could not be reached.')
    }
    const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null
    if (!res.ok || !body || body.error) {
      throw new GraphCallError(
        res.status || 502,
        body?.error?.message ?? `The social network answered ${res.status}.`,
      )
    }
    return body
  }

  return {
    me: (token) => get<Me>('/me', { fields: 'id,name,email,picture', access_token: token }),
    async permissions(token) {
      const page = await get<{ data: PermissionGrant[] }>('/me/permissions', { access_token: token })
      return Array.isArray(page.data) ? page.data : []
    },
    async exchangeToken(token) {
      const body = await get<{ access_token?: string }>('/oauth/access_token', {
        grant_type: 'fb_exchange_token',
        client_id: opts.appId,
        client_secret: opts.appSecret,
        fb_exchange_token: token,
      })
      if (!body.access_token) throw new GraphCallError(502, 'The social network answered without a token.')
      return body.access_token
    },
  }
}
