/** The send itself (the image once as a reusable attachment, then the text), and the footer's evidence. */
import { BRANDED_FOOTER } from '../shared/bulk/allowance.ts'
import { jobContent, optInPayload, sendContent } from '../shared/graph/delivery.ts'
import { reconcile } from '../shared/bulk/core/reconcile.ts'
import { jobs, recipients, type JobRecord, type RecipientRecord } from '../shared/bulk/records.ts'
import type { RunDeps } from './run-deps.ts'

export async function textWithFooterFound(deps: RunDeps, job: JobRecord, token: string, r: RecipientRecord) {
  const found = await reconcile(
    deps.graph,
    job.pageId,
    token,
    r.conversationId,
    job.text + BRANDED_FOOTER,
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
  const tagging = job.tag
    ? { messagingType: job.messagingType, tag: job.tag }
    : { messagingType: job.messagingType }
  const text = branded ? job.text + BRANDED_FOOTER : job.text
  return sendContent(
    jobContent(job.contentKind, job.optinTitle, job.utility),
    { image: !!job.imageUrl, imageSent: !!r.imageSent, name: r.name },
    {
      utility: async (utility) =>
        (
          await deps.graph.send(job.pageId, token, {
            recipientId: r.recipientId,
            messagingType: 'UTILITY',
            utility,
          })
        ).message_id,
      optInRequest: async (title) => {
        const sent = await deps.graph.send(job.pageId, token, {
          recipientId: r.recipientId,
          messagingType: 'RESPONSE',
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
