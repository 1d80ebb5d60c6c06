/**
 * A refusal by the network, as the server answers it (`network:<class>` with the network's own text): its
 * class in the owner's language, shown with the network's text beside it, never a guessed cause. Kept in a
 * job's stop reason as `network:<class>:<the network's text>`.
 */
import type { MessageDescriptor } from '@lingui/core'
import { graphErrorWords, isGraphErrorKind } from '../../../core/graph/error-words.ts'

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

/** The class's words: the same ones every Graph failure is told in (src/core/graph/error-words.ts). */
export function networkClassText(kind: string): MessageDescriptor {
  return graphErrorWords(isGraphErrorKind(kind) ? kind : 'config')
}
