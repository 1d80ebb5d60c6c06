/**
 * Starting a bulk job, in the pipeline's order: the server record, then the job and its recipients in one
 * Dexie transaction, then the recipient list to the server, then a wake-up for the sender.
 */
import { apiToken, createBulkMessage } from '../../../shared/api'
import type { SubscriptionState } from '../../../shared/contracts/api.ts'
import { MessageType } from '../../../shared/constants/limits.ts'
import { tagForSend, type ContentType } from '../../../shared/policy/messaging.ts'
import type { MessagingPolicyName } from '../../../shared/policy/tags.ts'
import { planAudience } from '../../../shared/bulk/allowance.ts'
import { createSenderApi } from '../../../shared/bulk/api-port.ts'
import { broadcastChannel, bulkMessage } from '../../../shared/bulk/protocol.ts'
import { writeJob, type AudienceMember, type JobRecord } from '../../../shared/bulk/records.ts'
import { syncRecipients } from '../../../shared/bulk/sync-recipients.ts'

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
}

export class NothingAvailable extends Error {}

export async function startBulkJob(input: StartJobInput): Promise<{ id: string; count: number }> {
  const plan = planAudience(input.recipients.length, input.subscription)
  if (plan.refused || plan.count === 0) throw new NothingAvailable('no messages available')
  const audience = input.recipients.slice(0, plan.count)
  const tagging = tagForSend(input.policy, input.content)
  const { id } = await createBulkMessage({
    page_id: input.pageId,
    message_type_id: MessageType.BULK_MESSAGE,
    message: input.text,
    image_url: input.imageUrl ?? null,
    label: JSON.stringify(input.labels),
    tag: tagging.tag ?? null,
    total_messages: audience.length,
    branded_messages_amount: plan.brandedFrom >= 0 ? audience.length - plan.brandedFrom : 0,
  })
  const now = Date.now()
  const job: JobRecord = {
    id,
    pageId: input.pageId,
    pageName: input.pageName,
    text: input.text,
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
    ...(input.keepSending ? { keepSending: true } : {}),
  }
  await writeJob(job, audience)
  // Ask the browser not to evict the job under storage pressure.
  void navigator.storage?.persist?.().catch(() => false)
  // The sender retries this when it fails (offline); a failure here never blocks the start.
  await syncRecipients(
    createSenderApi(location.origin, () => apiToken() ?? ''),
    id,
  )
  const channel = broadcastChannel()
  channel.post(bulkMessage.wake('job-added'))
  channel.close()
  return { id, count: audience.length }
}
