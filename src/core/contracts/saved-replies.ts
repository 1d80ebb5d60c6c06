/**
 * Saved replies (`/api/v2/saved-replies`): short texts a user keeps and inserts into the reply box. They
 * belong to the user (every device signed in as them sees the same list), never to a page.
 */
import { z } from './zod.ts'
import { MESSAGE_TEXT_MAX } from '../constants/limits.ts'

export const SAVED_REPLY_TITLE_MAX = 80
/** A saved reply is sent as one message, so it has a message's length limit. */
export const SAVED_REPLY_TEXT_MAX = MESSAGE_TEXT_MAX
export const SAVED_REPLIES_PER_USER = 200

export const savedReplyBody = z.strictObject({
  title: z._default(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(SAVED_REPLY_TITLE_MAX, `The title may have at most ${SAVED_REPLY_TITLE_MAX} characters.`),
      ),
    '',
  ),
  text: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'The text must not be empty.'),
      z.maxLength(SAVED_REPLY_TEXT_MAX, `The text may have at most ${SAVED_REPLY_TEXT_MAX} characters.`),
    ),
})
export type SavedReplyBody = z.input<typeof savedReplyBody>

export const savedReply = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  updated_at: z.string(),
})
export type SavedReply = z.infer<typeof savedReply>

export const savedRepliesResponse = z.object({ data: z.array(savedReply) })
export const savedReplyResponse = z.object({ data: savedReply })
