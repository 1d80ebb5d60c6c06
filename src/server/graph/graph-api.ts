/**
 * The few Graph calls the server itself makes, through the shared Graph client: verifying a login token,
 * inspecting a page token (debug_token) and exchanging a token for a long-lived one. The app secret is used
 * only here, server-side.
 */
import { type Fetch, createGraphClient } from '../../core/graph/client.ts'
import { ME_FIELDS } from '../../core/graph/fields.ts'
import { isGraphError } from '../../core/graph/errors.ts'
import type { Me, PermissionGrant, TokenDebugInfo } from '../../core/graph/types.ts'

export type FetchLike = typeof fetch

export class GraphCallError extends Error {
  /** HTTP status of the network's answer; 0 when it could not be reached, 502 for its own failures. */
  readonly status: number
  /** The network's error code and subcode, when it answered one. */
  readonly code: number | undefined
  readonly subcode: number | undefined
  constructor(status: number, message: string, code?: number, subcode?: number) {
    super(message)
    this.status = status
    this.code = code
    this.subcode = subcode
  }
}

/** The window refusal (10 / 2018278) and a customer who cannot be reached (… / 1545041): not the token's fault. */
const NOT_THE_TOKEN_SUBCODES: ReadonlySet<number> = new Set([2018278, 1545041])

/**
 * Whether the network refused a page token for its session or its permissions (190, 102, 230, 10, 200-299; not
 * a policy refusal about one customer): the user's binding to the page is then worth checking again.
 */
export function isPageTokenRefusal(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false
  const { code, subcode } = err as { code?: unknown; subcode?: unknown }
  if (typeof code !== 'number') return false
  if (typeof subcode === 'number' && NOT_THE_TOKEN_SUBCODES.has(subcode)) return false
  return code === 190 || code === 102 || code === 230 || code === 10 || (code >= 200 && code <= 299)
}

export interface GraphApi {
  me(token: string): Promise<Me>
  permissions(token: string): Promise<PermissionGrant[]>
  exchangeToken(token: string): Promise<string>
  /** The id of the node a token speaks for (`/me?fields=id`): a page id for a page token. */
  tokenOwner(token: string): Promise<string>
  /** `GET /debug_token` asked with the app token: which app, user and page a token was issued for. */
  debugToken(token: string): Promise<TokenDebugInfo>
  /** Subscribes the page to this app's webhooks (`POST /{page-id}/subscribed_apps`) with its page token. */
  subscribePage(pageId: string, pageToken: string): Promise<void>
}

/** The webhook fields a connected page is subscribed to. */
export const SUBSCRIBED_FIELDS = [
  'messages',
  'message_echoes',
  'message_deliveries',
  'message_reads',
  'messaging_optins',
  'message_template_status_update',
] as const

export interface GraphApiOptions {
  graphUrl: string
  version: string
  appId: string
  appSecret: string
  fetch?: Fetch | undefined
}

function translate(err: unknown): GraphCallError {
  if (err instanceof GraphCallError) return err
  if (!isGraphError(err)) return new GraphCallError(0, 'The social network could not be reached.')
  if (err.kind === 'network') return new GraphCallError(0, 'The social network could not be reached.')
  if (err.kind === 'transient' || err.kind === 'throttle') return new GraphCallError(502, err.message)
  return new GraphCallError(err.httpStatus || 400, err.message, err.code, err.subcode)
}

export function createGraphApi(opts: GraphApiOptions): GraphApi {
  const client = createGraphClient({
    baseUrl: opts.graphUrl,
    version: opts.version,
    timeoutMs: 10_000,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  })
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      throw translate(err)
    }
  }
  return {
    me: (token) => guarded(() => client.me(token, ME_FIELDS)),
    permissions: (token) => guarded(() => client.permissions(token)),
    tokenOwner: (token) => guarded(async () => (await client.me(token, 'id')).id),
    debugToken: (token) =>
      guarded(async () => (await client.debugToken(token, `${opts.appId}|${opts.appSecret}`)).data),
    subscribePage: (pageId, pageToken) =>
      guarded(async () => {
        const body = await client.subscribeApp(pageId, pageToken, SUBSCRIBED_FIELDS)
        if (body.success !== true && String(body.success) !== 'true')
          throw new GraphCallError(502, 'The social network did not confirm the subscription.')
      }),
    exchangeToken: (token) =>
      guarded(async () => {
        const body = await client.exchangeToken(token, opts.appId, opts.appSecret)
        if (!body.access_token) throw new GraphCallError(502, 'The social network answered without a token.')
        return body.access_token
      }),
  }
}
