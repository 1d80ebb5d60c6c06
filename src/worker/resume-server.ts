/**
 * A job whose local storage is gone (cleared, evicted, another device) is rebuilt from the server's record:
 * touched recipients keep their result, untouched ones near the touched ones are uncertain (reconciled
 * before any retry), the rest wait. Rebuilt jobs start paused: the owner resumes them from their card, so a
 * job still running on another device is never sent from two places without the owner asking.
 */
import {
  jobs,
  writeJob,
  type AudienceMember,
  type JobRecord,
  type RecipientRecord,
} from '../device/bulk/records.ts'
import type { OpenServerJob, SenderApi, ServerRecipient } from '../core/bulk/ports.ts'

/** Untouched recipients this close after the last touched one may have been sent before the touch. */
export const UNCERTAIN_TAIL = 5

export async function rebuildMissingJobs(api: SenderApi, now: number): Promise<string[]> {
  const open = await api.listOpen()
  const rebuilt: string[] = []
  for (const record of open) {
    // A stopped job stays stopped; only jobs that were meant to go on are rebuilt.
    if (
      (record.state !== undefined && record.state !== 'open') ||
      record.sender === 'server' ||
      (await jobs.get(record.id))
    )
      continue
    const list: ServerRecipient[] = []
    let after: string | undefined
    do {
      const page = await api.listRecipients(record.id, after)
      list.push(...page.data)
      after = page.next ?? undefined
    } while (after)
    if (list.length === 0) continue
    const { job, audience, rows } = rebuild(record, list, now)
    await writeJob(job, audience, rows)
    rebuilt.push(job.id)
  }
  return rebuilt
}

export function rebuild(record: OpenServerJob, list: ServerRecipient[], now: number) {
  const attemptAt = record.created_at ? Date.parse(record.created_at) : 0
  let lastTouched = -1
  list.forEach((r, i) => {
    if (r.status) lastTouched = i
  })
  // Everyone up to the uncertain tail gets a state row (touched: their result; untouched: uncertain); the
  // sender's cursor starts after them, so the rest are pending without a row each.
  const cursor = Math.min(list.length, lastTouched + UNCERTAIN_TAIL + 1)
  const rows: RecipientRecord[] = list.slice(0, cursor).map((r, order) => ({
    key: `${record.id}:${r.recipient_id}`,
    jobId: record.id,
    recipientId: r.recipient_id,
    name: r.name,
    conversationId: r.conversation_id,
    order,
    state: r.status === 'OK' ? 'sent' : r.status === 'NG' ? 'rejected' : 'sending',
    attempts: r.status ? 1 : 0,
    attemptAt,
    branded: r.sent_as_branded ?? false,
    ...(r.way === 'marketing' ? { way: r.way } : {}),
  }))
  const audience: AudienceMember[] = list.map((r) => ({
    recipientId: r.recipient_id,
    name: r.name,
    conversationId: r.conversation_id,
    ...(r.way === 'marketing' ? { way: r.way } : {}),
  }))
  const sent = rows.filter((r) => r.state === 'sent').length
  const rejected = rows.filter((r) => r.state === 'rejected').length
  const branded = record.branded_messages_amount
  const campaign = record.marketing
  const job: JobRecord = {
    id: record.id,
    kind: record.kind,
    pageId: record.page_id,
    pageName: '',
    text: record.message,
    ...(record.image_url ? { imageUrl: record.image_url } : {}),
    ...(record.tag ? { tag: record.tag } : {}),
    ...(record.content_kind === 'optin_request'
      ? { contentKind: record.content_kind, optinTitle: record.optin_title ?? '' }
      : {}),
    ...(record.content_kind === 'utility' && record.utility
      ? { contentKind: record.content_kind, utility: record.utility }
      : {}),
    ...(record.name_fallback ? { nameFallback: record.name_fallback } : {}),
    ...(record.kind === 'marketing' && campaign
      ? {
          marketing: {
            budgetKind: campaign.budget_kind,
            budgetMinor: campaign.budget_minor,
            currency: campaign.currency,
            estimateMinor: campaign.estimate_minor,
            sent: campaign.sent,
            spendMinor: campaign.spend_minor,
          },
        }
      : {}),
    messagingType: record.tag ? 'MESSAGE_TAG' : 'RESPONSE',
    labels: parseLabels(record.label),
    total: list.length,
    brandedFrom: branded > 0 ? Math.max(0, list.length - branded) : -1,
    brandedAuthorised: branded > 0,
    state: 'paused',
    stopReason: 'resumed_from_server',
    createdAt: attemptAt || now,
    nextSendAt: 0,
    lease: 0,
    sent,
    rejected,
    skipped: 0,
    recipientsSynced: true,
    cursor,
  }
  return { job, audience, rows }
}

function parseLabels(label: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(label ?? '[]')
    return Array.isArray(parsed) ? parsed.map(String) : []
  } catch {
    return []
  }
}
