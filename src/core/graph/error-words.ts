/**
 * What each class of Graph failure means to a page's owner, in the interface language. The network's own
 * text (English, or the language of the owner's Facebook account) is shown beside it, never in its place.
 */
import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { GraphErrorKind } from './types.ts'

export const GRAPH_ERROR_KINDS = [
  'throttle',
  'auth',
  'page_blocked',
  'config',
  'outside_window',
  'recipient_gone',
  'transient',
  'network',
] as const satisfies readonly GraphErrorKind[]

const WORDS: Record<GraphErrorKind, MessageDescriptor> = {
  throttle: msg`Facebook is slowing this page's messages down. Try again in a few minutes.`,
  auth: msg`Your Facebook sign-in has expired. Sign in again, then send.`,
  page_blocked: msg`Facebook has restricted this page from sending messages.`,
  config: msg`Facebook refused this message.`,
  outside_window: msg`This customer last wrote more than 24 hours ago, so Messenger does not let the page write to them now.`,
  recipient_gone: msg`This person cannot get messages from your page right now (they may have blocked it or left Messenger).`,
  transient: msg`Facebook had a problem sending this. Try again in a moment.`,
  network: msg`No connection to Facebook. Check your internet, then try again.`,
}

export function isGraphErrorKind(value: unknown): value is GraphErrorKind {
  return typeof value === 'string' && (GRAPH_ERROR_KINDS as readonly string[]).includes(value)
}

export function graphErrorWords(kind: GraphErrorKind): MessageDescriptor {
  return WORDS[kind]
}

/** The words of a failure class in the active language; the class of an unknown value reads as a refusal. */
export function graphErrorText(kind: unknown): string {
  return i18n._(WORDS[isGraphErrorKind(kind) ? kind : 'config'])
}
