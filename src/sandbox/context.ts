/** What every sandbox route shares: options, the world, tokens and the current faults. */
import type { FastifyRequest } from 'fastify'
import { errors } from './graph-error.ts'
import { NO_FAULTS, type Faults } from './faults.ts'
import type { MarketingState } from './marketing/state.ts'
import type { PushServiceState } from './push/service.ts'
import type { SandboxStore } from './state/store.ts'
import type { TokenInfo, TokenStore } from './state/tokens.ts'
import type { UtilityState } from './utility/state.ts'
import type { WebhookSender } from './webhooks.ts'

export interface SandboxOptions {
  policy: 'current' | 'legacy'
  seed: number
  appId: string
  appSecret: string
  publicUrl: string
  liveMs: number
  /** The page has the human-agent feature (HUMAN_AGENT tag up to 7 days). */
  humanAgent?: boolean
  /** Where the checkout page posts `checkout.session.completed` (absolute, or a path on this server). */
  paymentWebhookUrl?: string
  paymentWebhookSecret?: string
  /**
   * How many conversations the large demo page has: 1,280 by default, fewer for a test that sends to them all,
   * up to 200,000 for a page at real size.
   */
  largePageConversations?: number
  /** Fixes the demo data's time base (tests); defaults to the moment the plugin starts. */
  startMs?: number
  /**
   * Where the Messenger webhooks go (absolute, or a path on this server such as `/webhooks/messenger`), signed
   * with `appSecret`; none are sent without it.
   */
  messengerWebhookUrl?: string | undefined
  /** How long the review of a template the page wrote takes before its status webhook (default 1.5 s). */
  utilityReviewMs?: number
}

export interface SandboxContext {
  options: SandboxOptions
  store: SandboxStore
  tokens: TokenStore
  faults: Faults
  /** Sends answered since the faults were last set (the transient share is spread over them). */
  faultSends: number
  /** What the sandbox's Web Push service received, and the answers it was told to give. */
  push: PushServiceState
  webhooks: WebhookSender
  /** Ad accounts, campaigns, subscription tokens and spend of marketing messages (src/sandbox/marketing). */
  marketing: MarketingState
  /** The pages' utility templates and the utility messages sent (src/sandbox/utility). */
  utility: UtilityState
}

export function newFaults(): Faults {
  return { ...NO_FAULTS }
}

export function tokenOf(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined
  const b = request.body as Record<string, unknown> | undefined
  const fromQuery = typeof q?.access_token === 'string' ? q.access_token : undefined
  const fromBody =
    b && typeof b === 'object' && typeof b.access_token === 'string' ? b.access_token : undefined
  const header = request.headers.authorization
  const fromHeader = header ? header.replace(/^(Bearer|OAuth)\s+/i, '') : undefined
  return fromQuery || fromBody || fromHeader || undefined
}

export function authenticate(
  ctx: SandboxContext,
  request: FastifyRequest,
): { token: string; info: TokenInfo } {
  const token = tokenOf(request)
  if (!token) throw errors.noToken()
  const info = ctx.tokens.get(token)
  if (!info) throw errors.badToken()
  const now = Date.now()
  if (ctx.tokens.isRoleLost(token)) throw errors.roleLost()
  if (ctx.tokens.isExpired(token, info, now)) throw errors.expired(Math.min(info.expiresMs, now), now)
  return { token, info }
}

/** A page token for `pageId` (or for the token's own page when pageId is 'me'). */
export function authenticatePage(
  ctx: SandboxContext,
  request: FastifyRequest,
  pageId: string,
): { token: string; info: TokenInfo; pageId: string } {
  const auth = authenticate(ctx, request)
  if (auth.info.kind !== 'page') {
    if (pageId !== 'me' && !ctx.store.pages.has(pageId)) throw errors.unknownObject(pageId)
    throw errors.needsPageToken()
  }
  const id = pageId === 'me' ? auth.info.pageId! : pageId
  if (id !== auth.info.pageId) throw errors.unknownObject(pageId)
  return { ...auth, pageId: id }
}

export function absoluteBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}
