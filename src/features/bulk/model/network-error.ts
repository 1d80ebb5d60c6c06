/**
 * A refusal by the network, as the server answers it (`network:<class>` with the network's own text): its
 * class in the owner's language, shown with the network's text beside it, never a guessed cause. Kept in a
 * job's stop reason as `network:<class>:<the network's text>`.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export interface NetworkRefusal {
  kind: string
  /** The network's own words, e.g. "(#200) Requires ads_management permission". */
  text: string
}

/** `network:<class>[:<text>]`, or undefined for any other reason. */
export function networkRefusalOf(reason: string): NetworkRefusal | undefined {
  const match = /^network:([a-z_]+)(?::([\s\S]*))?$/.exec(reason)
  return match ? { kind: match[1]!, text: match[2] ?? '' } : undefined
}

/** The reason a job keeps: the class and the network's text together. */
export function networkReason(code: string, text: string | undefined): string {
  return text ? `${code}:${text}` : code
}

export function networkClassText(kind: string): MessageDescriptor {
  switch (kind) {
    case 'auth':
      return msg`The social network refused the page's access.`
    case 'page_blocked':
      return msg`The social network has blocked this page.`
    case 'throttle':
      return msg`The social network is limiting requests right now.`
    case 'config':
      return msg`The social network refused the request (a permission or a setting).`
    default:
      return msg`The social network refused the request.`
  }
}
