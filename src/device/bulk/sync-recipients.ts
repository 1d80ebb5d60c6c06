/** Gives the server the job's recipient list (so it can be resumed elsewhere), in chunks of at most 5000. */
import { audienceOf, jobs } from './records.ts'
import type { SenderApi } from '../../core/bulk/ports.ts'

export const RECIPIENTS_PER_CALL = 5_000

/** True when the server has the whole list; false when it must be retried (offline, server error). */
export async function syncRecipients(api: SenderApi, jobId: string): Promise<boolean> {
  const list = await audienceOf(jobId)
  try {
    for (let i = 0; i < list.length; i += RECIPIENTS_PER_CALL) {
      const chunk = list.slice(i, i + RECIPIENTS_PER_CALL)
      await api.putRecipients(
        jobId,
        chunk.map((r) => ({
          recipient_id: r.recipientId,
          name: r.name,
          conversation_id: r.conversationId,
          ...(r.way && r.way !== 'standard' ? { way: r.way } : {}),
        })),
      )
    }
  } catch {
    return false
  }
  await jobs.update(jobId, { recipientsSynced: true })
  return true
}
