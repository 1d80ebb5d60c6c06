/** The send itself (the image once as a reusable attachment, then the text), and the footer's evidence. */
import { BROADCAST_METADATA } from '../shared/contracts/conversation-states.ts'
import { BRANDED_FOOTER } from '../shared/bulk/allowance.ts'
import {
  jobContent,
  optInPayload,
  personalText,
  recipientContent,
  sendContent,
} from '../shared/graph/delivery.ts'
import { reconcile } from '../shared/bulk/core/reconcile.ts'
import { jobs, recipients, type JobRecord, type RecipientRecord } from '../shared/bulk/records.ts'
import type { RunDeps } from './run-deps.ts'

export async function textWithFooterFound(deps: RunDeps, job: JobRecord, token: string, r: RecipientRecord) {
  const found = await reconcile(
    deps.graph,
    job.pageId,
    token,
    r.conversationId,
    personalText(job.text, r.name, job.nameFallback ?? '') + BRANDED_FOOTER,
    r.attemptAt ?? 0,
  )
  return found.textSent
}

/** Sends the recipient's content; answers the network's message id of an opt-in request. */
export async function sendOne(
  deps: RunDeps,
  job: JobRecord,
  r: RecipientRecord,
  token: string,
  branded: boolean,
): Promise<string | undefined> {
  // Every send of a job carries the broadcast metadata: the network echoes it, and no echo of it is an answer.
  const tagging = job.tag
    ? { messagingType: job.messagingType, tag: job.tag, metadata: BROADCAST_METADATA }
    : { messagingType: job.messagingType, metadata: BROADCAST_METADATA }
  const personal = personalText(job.text, r.name, job.nameFallback ?? '')
  const text = branded ? personal + BRANDED_FOOTER : personal
  return sendContent(
    recipientContent(
      jobContent(job.contentKind, job.optinTitle, job.utility),
      r.name,
      job.nameFallback ?? '',
    ),
    { image: !!job.imageUrl, imageSent: !!r.imageSent },
    {
      utility: async (utility) =>
        (
          await deps.graph.send(job.pageId, token, {
            recipientId: r.recipientId,
            messagingType: 'UTILITY',
            metadata: BROADCAST_METADATA,
            utility,
          })
        ).message_id,
      optInRequest: async (title) => {
        const sent = await deps.graph.send(job.pageId, token, {
          recipientId: r.recipientId,
          messagingType: 'RESPONSE',
          metadata: BROADCAST_METADATA,
          optIn: { title, payload: optInPayload(job.id) },
        })
        return sent.message_id
      },
      image: async () => {
        let attachmentId = (await jobs.get(job.id))?.attachmentId
        if (!attachmentId) {
          attachmentId = (await deps.graph.uploadAttachment(job.pageId, token, job.imageUrl!)).attachment_id
          await jobs.update(job.id, { attachmentId })
        }
        await deps.graph.send(job.pageId, token, {
          recipientId: r.recipientId,
          ...tagging,
          attachment: { attachmentId },
        })
      },
      imageWent: async () => {
        await recipients.update(r.key, { imageSent: true })
      },
      text: async () => {
        await deps.graph.send(job.pageId, token, { recipientId: r.recipientId, ...tagging, text })
      },
    },
  )
}
