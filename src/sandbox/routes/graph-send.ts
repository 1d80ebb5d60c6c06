/** The Send API (`POST /me/messages`, `/{page-id}/messages`) and reusable attachments, with the policy. */
import type { FastifyInstance } from 'fastify'
import { MESSAGE_TEXT_MAX } from '../../core/constants/limits.ts'
import { authenticatePage, type SandboxContext } from '../context.ts'
import { sendFault } from '../faults.ts'
import { errors } from '../graph-error.ts'
import { jsonField } from '../fields.ts'
import { optinTemplateOf, sendOptinRequest } from '../marketing/optin-request.ts'
import { checkRecipient, checkTag } from '../policy.ts'
import { sendUtility, utilityTemplateOf } from '../utility/graph.ts'

type Json = Record<string, unknown>

/** The sender actions of the Send API (reactions, which need a message id, are not part of the subset). */
const SENDER_ACTIONS = new Set(['mark_seen', 'typing_on', 'typing_off'])

interface ParsedAttachment {
  url?: string
  attachmentId?: string
  reusable: boolean
}

function parseAttachment(message: Json): ParsedAttachment | undefined {
  const att = jsonField(message.attachment)
  if (!att) return undefined
  const payload = jsonField(att.payload) ?? {}
  if (
    att.type !== undefined &&
    att.type !== 'image' &&
    att.type !== 'file' &&
    att.type !== 'video' &&
    att.type !== 'audio'
  ) {
    throw errors.invalidParam(
      'Param message[attachment][type] must be one of {image, audio, video, file, template}',
    )
  }
  const url = typeof payload.url === 'string' ? payload.url : undefined
  const attachmentId = typeof payload.attachment_id === 'string' ? payload.attachment_id : undefined
  if (!url && !attachmentId)
    throw errors.invalidParam('Param message[attachment][payload] must contain url or attachment_id')
  const reusable = payload.is_reusable === true || payload.is_reusable === 'true'
  return { url, attachmentId, reusable }
}

export function registerGraphSend(app: FastifyInstance, ctx: SandboxContext): void {
  const { store, options } = ctx
  const policy = { policy: options.policy, humanAgent: options.humanAgent ?? false }

  /**
   * A sender action (Messenger Platform "Sender Actions"): `{recipient:{id}, sender_action}` with no message.
   * `mark_seen` marks the customer's messages seen, so the conversation's unread_count drops to 0; the typing
   * indicators change nothing here. The answer is `{recipient_id}` only, as the network's.
   */
  function senderAction(pageId: string, recipientId: string, body: Json) {
    const action = body.sender_action
    if (typeof action !== 'string' || !SENDER_ACTIONS.has(action)) {
      throw errors.invalidParam(`Param sender_action must be one of {${[...SENDER_ACTIONS].join(', ')}}`)
    }
    if (body.message !== undefined)
      throw errors.invalidParam('Param sender_action cannot be used with param message')
    const conv = store.conversationWith(pageId, recipientId)
    if (!conv) throw errors.noMatchingUser()
    if (action === 'mark_seen') conv.unread = 0
    store.senderActions.push({
      page_id: pageId,
      recipient_id: recipientId,
      sender_action: action,
      at: new Date().toISOString(),
    })
    return { recipient_id: recipientId }
  }

  app.post('/graph/:version/:id/messages', async (request) => {
    const { id } = request.params as { id: string }
    const body = (request.body ?? {}) as Json
    const { info, pageId } = authenticatePage(ctx, request, id)
    if (!info.granted.includes('pages_messaging')) throw errors.needsMessaging()
    const fault = sendFault(ctx.faults, ++ctx.faultSends)
    if (fault) throw fault

    const recipient = jsonField(body.recipient)
    const recipientId = typeof recipient?.id === 'string' ? recipient.id : undefined
    if (!recipientId) throw errors.invalidParam('The parameter recipient is required')
    if (body.sender_action !== undefined) return senderAction(pageId, recipientId, body)
    const message = jsonField(body.message)
    if (!message) throw errors.invalidParam('The parameter message is required')
    const messagingType = typeof body.messaging_type === 'string' ? body.messaging_type : 'RESPONSE'
    const tag = typeof body.tag === 'string' && body.tag ? body.tag : undefined
    const optin = optinTemplateOf(message)
    if (optin) return sendOptinRequest(ctx, pageId, recipientId, messagingType, message, optin)
    const template = utilityTemplateOf(message)
    if (template) return sendUtility(ctx, info, pageId, recipientId, messagingType, message, template)

    const text = typeof message.text === 'string' ? message.text : undefined
    const attachment = parseAttachment(message)
    if (text !== undefined && attachment)
      throw errors.invalidParam('Only one of text or attachment may be set')
    if (text === undefined && !attachment) throw errors.invalidParam('Param message must be non-empty')
    if (text !== undefined && (text.length === 0 || text.length > MESSAGE_TEXT_MAX)) {
      throw errors.invalidParam(
        `Length of param message[text] must be less than or equal to ${MESSAGE_TEXT_MAX}`,
      )
    }
    if (attachment?.attachmentId && !store.attachments.has(attachment.attachmentId)) {
      throw errors.invalidParam('Attachment with this id does not exist')
    }
    const tagError = checkTag(policy, messagingType, tag)
    if (tagError) throw tagError

    const conv = store.conversationWith(pageId, recipientId)
    if (!conv) throw errors.noMatchingUser()
    const now = Date.now()
    const refused = checkRecipient(conv, messagingType, tag, now)
    if (refused) throw refused

    let attachmentId = attachment?.attachmentId
    let newAttachmentId: string | undefined
    if (attachment?.url && attachment.reusable) {
      newAttachmentId = attachmentId = store.nextAttachmentId()
      store.attachments.set(attachmentId, attachment.url)
    }
    const stored = store.addMessage(conv, {
      createdMs: now,
      fromPage: true,
      text: text ?? '',
      // Up to 1,000 characters, echoed with the message to the app that sent it.
      ...(typeof message.metadata === 'string' && message.metadata
        ? { metadata: message.metadata.slice(0, 1000) }
        : {}),
      ...(attachment
        ? {
            attachment: {
              url: attachment.url ?? store.attachments.get(attachmentId!) ?? '',
              id: attachmentId,
            },
          }
        : {}),
    })
    ctx.webhooks.pageSent(pageId, recipientId, stored, options.appId)
    store.sent.push({
      page_id: pageId,
      recipient_id: recipientId,
      messaging_type: messagingType,
      tag: tag ?? null,
      text: text ?? null,
      attachment: attachment
        ? attachment.attachmentId
          ? { attachment_id: attachment.attachmentId }
          : { url: attachment.url! }
        : null,
      message_id: stored.id,
      at: new Date(now).toISOString(),
    })
    return {
      recipient_id: recipientId,
      message_id: stored.id,
      ...(newAttachmentId ? { attachment_id: newAttachmentId } : {}),
    }
  })

  /** Webhook subscription of a page to this app (the fields asked for are kept, as the network does). */
  app.post('/graph/:version/:id/subscribed_apps', async (request) => {
    const { id } = request.params as { id: string }
    const { info, pageId } = authenticatePage(ctx, request, id)
    if (!info.granted.includes('pages_manage_metadata')) throw errors.needsMetadata()
    const q = { ...((request.query ?? {}) as Json), ...((request.body ?? {}) as Json) }
    const fields =
      typeof q.subscribed_fields === 'string' ? q.subscribed_fields.split(',').filter(Boolean) : []
    if (fields.length === 0) throw errors.invalidParam('The parameter subscribed_fields is required')
    store.subscribedFields.set(pageId, fields)
    return { success: true }
  })

  app.post('/graph/:version/:id/message_attachments', async (request) => {
    const { id } = request.params as { id: string }
    authenticatePage(ctx, request, id)
    const message = jsonField(((request.body ?? {}) as Json).message)
    const attachment = message ? parseAttachment(message) : undefined
    if (!attachment?.url) throw errors.invalidParam('Param message[attachment][payload][url] is required')
    const attachmentId = store.nextAttachmentId()
    store.attachments.set(attachmentId, attachment.url)
    return { attachment_id: attachmentId }
  })
}
