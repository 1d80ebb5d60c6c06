/**
 * Starting a bulk job, in the pipeline's order: the server record, then the job and its recipients in one
 * Dexie transaction, then the recipient list to the server, then a wake-up for the sender.
 * A job that reaches subscribers by marketing message runs on the server from the start: once the server has
 * the recipient list, `POST /messages/{id}/marketing` creates the campaign with the budget and takes the job
 * (with the page token, sealed there), as a hand-over does; the device never sends it.
 */
import { apiToken, createBulkMessage, isApiError, startMarketingJob } from '../../../shared/api'
import type { Budget, ContentKind, JobKind } from '../../../core/contracts/marketing.ts'
import { jobs } from '../../../device/bulk/records.ts'
import type { AudienceLabels, SubscriptionState } from '../../../core/contracts/api.ts'
import { FIRST_NAME_TOKEN } from '../../../core/graph/delivery.ts'
import { fillBody, type UtilityContent } from '../../../core/graph/template.ts'
import { MessageType } from '../../../core/constants/limits.ts'
import { tagForSend, type ContentType } from '../../../core/policy/messaging.ts'
import type { MessagingPolicyName } from '../../../core/policy/tags.ts'
import { planAudience } from '../../../core/bulk/allowance.ts'
import { createSenderApi } from '../../../device/bulk/api-port.ts'
import { broadcastChannel, bulkMessage } from '../../../device/bulk/protocol.ts'
import { writeJob, type AudienceMember, type JobRecord } from '../../../device/bulk/records.ts'
import { syncRecipients, uploadStep } from '../../../device/bulk/sync-recipients.ts'
import { networkReason } from '../model/network-error.ts'

export interface StartJobInput {
  pageId: string
  pageName: string
  text: string
  imageUrl?: string
  content: ContentType
  policy: MessagingPolicyName
  labels: string[]
  recipients: AudienceMember[]
  subscription: SubscriptionState | null
  /** Hand the job to the server when the app is hidden or closed. */
  keepSending?: boolean
  /**
   * An opt-in request ("Ask to subscribe") with this title, or an update from a template (`utility`, a
   * utility message with these parameters), instead of the text.
   */
  contentKind?: ContentKind
  optinTitle?: string
  utility?: UtilityContent
  /** The page's custom labels the audience was chosen by. */
  audienceLabels?: AudienceLabels
  /** Written where the text takes a recipient's first name and the network has none. */
  nameFallback?: string
  /** Set when some recipients have `way: 'marketing'`: the campaign's budget and the page token. */
  marketing?: { budget: Budget; currency: string; estimateMinor: number; pageToken: string }
}

export class NothingAvailable extends Error {}

/**
 * The server could not start the marketing part (no campaign was created, or the network refused it): the
 * job is stopped with `marketing:<name>` and nothing was sent. `name` is the marketing error's name when the
 * server gave one.
 */
export class MarketingStartFailed extends Error {
  constructor(
    /** The marketing error's name (`marketingErrorText`), or the product's own: `no_connection`, `start_failed`. */
    readonly code: string,
    readonly serverMessage: string | undefined,
  ) {
    super(`the marketing send could not start: ${code}`)
  }
}

/**
 * The reason in a refusal of `POST /messages/{id}/marketing`, when it carries one: a marketing error's name, a
 * refusal of the product's own (`budget_too_small`), or the network's refusal as what it is (`network:<class>`,
 * the network's text in `message`). Nothing is guessed from the fields of the errors map.
 */
export function marketingRefusal(body: unknown): { code?: string; message?: string } {
  if (!body || typeof body !== 'object') return {}
  const b = body as {
    code?: unknown
    marketing?: unknown
    message?: unknown
    error?: { marketing?: unknown; message?: unknown; code?: unknown }
    errors?: Record<string, unknown>
  }
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
  const code = str(b.marketing) ?? str(b.error?.marketing) ?? str(b.code) ?? str(b.error?.code)
  const message = str(b.message) ?? str(b.error?.message)
  return { ...(code ? { code: code.replace(/^marketing:/, '') } : {}), ...(message ? { message } : {}) }
}

export async function startBulkJob(input: StartJobInput): Promise<{ id: string; count: number }> {
  const plan = planAudience(input.recipients.length, input.subscription)
  if (plan.refused || plan.count === 0) throw new NothingAvailable('no messages available')
  const audience = input.recipients.slice(0, plan.count)
  const tagging = tagForSend(input.policy, input.content)
  const optin = input.contentKind === 'optin_request' && !!input.optinTitle
  const utility = input.contentKind === 'utility' ? input.utility : undefined
  // An opt-in request has no text of its own: its record (and card) reads the request's title; an update
  // reads its template's body with the values typed once (`{first name}` kept, as in a text).
  const text = optin ? input.optinTitle! : utility ? fillBody(utility.body, utility.params) : input.text
  const personal = !optin && text.includes(FIRST_NAME_TOKEN) && !!input.nameFallback?.trim()
  // A utility job reaches everyone by its template: never a campaign.
  const marketing =
    input.marketing && !utility && audience.some((m) => m.way === 'marketing') ? input.marketing : undefined
  // Fixed here for the job's whole life, on the server record and on this device's alike.
  const kind: JobKind = optin ? 'optin_request' : utility ? 'utility' : marketing ? 'marketing' : 'standard'
  const { id } = await createBulkMessage({
    page_id: input.pageId,
    message_type_id: MessageType.BULK_MESSAGE,
    message: text,
    image_url: input.imageUrl ?? null,
    label: JSON.stringify(input.labels),
    tag: tagging.tag ?? null,
    total_messages: audience.length,
    branded_messages_amount: plan.brandedFrom >= 0 ? audience.length - plan.brandedFrom : 0,
    ...(optin ? { content_kind: 'optin_request' as const, optin_title: input.optinTitle! } : {}),
    ...(utility ? { content_kind: 'utility' as const, utility } : {}),
    kind,
    ...(input.audienceLabels ? { audience_labels: input.audienceLabels } : {}),
    ...(personal ? { name_fallback: input.nameFallback!.trim() } : {}),
  })
  const now = Date.now()
  const job: JobRecord = {
    id,
    kind,
    pageId: input.pageId,
    pageName: input.pageName,
    text,
    ...(input.imageUrl ? { imageUrl: input.imageUrl } : {}),
    ...(tagging.tag ? { tag: tagging.tag } : {}),
    messagingType: tagging.messagingType,
    labels: input.labels,
    total: audience.length,
    brandedFrom: plan.brandedFrom,
    brandedAuthorised: input.subscription?.use_branded_messages ?? false,
    policy: input.policy,
    state: 'queued',
    createdAt: now,
    nextSendAt: 0,
    lease: 0,
    sent: 0,
    rejected: 0,
    skipped: 0,
    recipientsSynced: false,
    cursor: 0,
    ...(input.keepSending || marketing ? { keepSending: true } : {}),
    ...(optin ? { contentKind: 'optin_request' as const, optinTitle: input.optinTitle! } : {}),
    ...(utility ? { contentKind: 'utility' as const, utility } : {}),
    ...(personal ? { nameFallback: input.nameFallback!.trim() } : {}),
    ...(input.audienceLabels ? { audienceLabels: input.audienceLabels } : {}),
    ...(marketing
      ? {
          // The device never sends it: on the server (with a moved lease) until the server takes it.
          state: 'on_server' as const,
          lease: 1,
          marketing: {
            budgetKind: marketing.budget.kind,
            budgetMinor: marketing.budget.minor,
            currency: marketing.currency,
            estimateMinor: marketing.estimateMinor,
          },
        }
      : {}),
  }
  await writeJob(job, audience)
  // Ask the browser not to evict the job under storage pressure.
  void navigator.storage?.persist?.().catch(() => false)
  const api = createSenderApi(location.origin, () => apiToken() ?? '')
  if (marketing) {
    // The server sends it, so it needs the whole list first, at the pace of the route's limit.
    await startOnServer(id, marketing, await syncRecipients(api, id))
    return { id, count: audience.length }
  }
  // What may go at once goes now; the sender carries the upload on from there (and retries a failure), so
  // the start never waits for a long list nor fails on it.
  await uploadStep(api, id)
  const channel = broadcastChannel()
  channel.post(bulkMessage.wake('job-added'))
  channel.close()
  return { id, count: audience.length }
}

/** Hands a marketing job to the server; on a refusal the job stops with the reason and the error is thrown. */
async function startOnServer(
  id: string,
  marketing: NonNullable<StartJobInput['marketing']>,
  synced: boolean,
): Promise<void> {
  let answer: { lease?: number } | undefined
  let refusal: { code?: string; message?: string } = { code: 'no_connection' }
  if (synced) {
    try {
      answer = await startMarketingJob(id, {
        page_token: marketing.pageToken,
        budget: marketing.budget,
        lease: 0,
      })
    } catch (err) {
      refusal = isApiError(err) ? marketingRefusal(err.body) : {}
    }
  }
  if (answer) {
    await jobs.update(id, { serverLease: typeof answer.lease === 'number' ? answer.lease : 1 })
    return
  }
  const code = refusal.code ?? 'start_failed'
  // A refusal by the network keeps the network's own words with its class.
  const reason = code.startsWith('network:') ? networkReason(code, refusal.message) : code
  await jobs.update(id, { state: 'stopped', stopReason: `marketing:${reason}` })
  throw new MarketingStartFailed(code, refusal.message)
}
