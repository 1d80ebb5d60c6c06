/**
 * Opt-in requests: the Send API's `notification_messages` template (`POST /me/messages`), which asks a customer
 * to subscribe to a page's marketing messages under a title. Only inside the 24-hour window, and one request
 * with the same title per person per 7 days. A delivered request is in the conversation like any page message
 * (its title as the text), sends the echo webhook and is what a later opt-in answers (POST /sandbox/optin).
 */
import type { SandboxContext } from '../context.ts'
import { errors } from '../graph-error.ts'
import { checkRecipient } from '../policy.ts'
import { mmErrors } from './errors.ts'
import { jsonField } from '../fields.ts'

type Json = Record<string, unknown>

export const OPTIN_TITLE_MAX = 65
export const OPTIN_INTERVAL_MS = 7 * 86_400_000
const CTA_TEXTS = new Set(['ALLOW', 'GET', 'GET_UPDATES', 'OPT_IN', 'SIGN_UP'])
/** The network's title when the request gives none. */
export const NETWORK_DEFAULT_TITLE = 'Updates and promotions'

/** The template's payload when `message` is a notification_messages template, else undefined. */
export function optinTemplateOf(message: Json): Json | undefined {
  const attachment = jsonField(message.attachment)
  if (attachment?.type !== 'template') return undefined
  const payload = jsonField(attachment.payload)
  return payload?.template_type === 'notification_messages' ? payload : undefined
}

/** Sends the opt-in request `payload` to `recipientId` of `pageId` (authentication and faults done by the caller). */
export function sendOptinRequest(
  ctx: SandboxContext,
  pageId: string,
  recipientId: string,
  messagingType: string,
  message: Json,
  payload: Json,
): { recipient_id: string; message_id: string } {
  if (typeof message.text === 'string') throw errors.invalidParam('Only one of text or attachment may be set')
  if (payload.title !== undefined && typeof payload.title !== 'string')
    throw errors.invalidParam('Param message[attachment][payload][title] must be a string')
  const title = (typeof payload.title === 'string' ? payload.title.trim() : '') || NETWORK_DEFAULT_TITLE
  if (title.length > OPTIN_TITLE_MAX)
    throw errors.invalidParam(
      `Length of param message[attachment][payload][title] must be less than or equal to ${OPTIN_TITLE_MAX}`,
    )
  if (typeof payload.payload !== 'string' || !payload.payload)
    throw errors.invalidParam('Param message[attachment][payload][payload] is required')
  if (
    payload.image_url !== undefined &&
    (typeof payload.image_url !== 'string' || !/^https?:\/\//.test(payload.image_url))
  )
    throw errors.invalidParam('Param message[attachment][payload][image_url] must be a URL')
  const cta = payload.notification_messages_cta_text
  if (cta !== undefined && (typeof cta !== 'string' || !CTA_TEXTS.has(cta)))
    throw errors.invalidParam(
      `Param message[attachment][payload][notification_messages_cta_text] must be one of {${[...CTA_TEXTS].join(', ')}}`,
    )
  // notification_messages_frequency is deprecated: the network ignores it, and so does the sandbox.
  if (messagingType !== 'RESPONSE' && messagingType !== 'UPDATE')
    throw errors.invalidParam('Param messaging_type must be RESPONSE for an opt-in request')

  const conv = ctx.store.conversationWith(pageId, recipientId)
  if (!conv) throw errors.noMatchingUser()
  const now = Date.now()
  const refused = checkRecipient(conv, 'RESPONSE', undefined, now)
  if (refused) throw refused
  const last = ctx.marketing.lastRequest(pageId, recipientId, title)
  if (last && now - last.sentMs < OPTIN_INTERVAL_MS) throw mmErrors.optinWeeklyLimit()

  const stored = ctx.store.addMessage(conv, {
    createdMs: now,
    fromPage: true,
    text: title,
    ...(typeof message.metadata === 'string' ? { metadata: message.metadata } : {}),
  })
  ctx.webhooks.pageSent(pageId, recipientId, stored, ctx.options.appId)
  const timezone = payload.notification_messages_timezone
  ctx.marketing.requests.push({
    pageId,
    psid: recipientId,
    title,
    payload: payload.payload,
    ...(typeof timezone === 'string' ? { timezone } : {}),
    sentMs: now,
  })
  ctx.marketing.sends.push({
    page_id: pageId,
    psid: recipientId,
    kind: 'optin_request',
    title,
    message_id: stored.id,
    at: new Date(now).toISOString(),
    atMs: now,
  })
  return { recipient_id: recipientId, message_id: stored.id }
}
