/** In-memory stand-ins for the Graph API and the sender's dependencies, for the sender's browser tests. */
import { GraphError } from '../../core/graph/errors.ts'
import type { ChatMessage, GraphErrorKind, SendRequest } from '../../core/graph/types.ts'
import type { SenderGraph, Subscription } from '../../core/bulk/ports.ts'
import { type FakeApi, MemoryChannel, PAGE } from '../../device/testing/bulk-fakes.ts'
import type { RunDeps } from '../run-job.ts'
import { createWaker } from '../waker.ts'

export {
  FakeApi,
  jobRecord,
  MemoryChannel,
  PAGE,
  recordSending,
  resetDb,
  seedJob,
} from '../../device/testing/bulk-fakes.ts'

export type Fault = { kind: GraphErrorKind; code?: number; subcode?: number } | 'lost-response'

export interface Delivered {
  /** The message id the send answered (and the conversation shows). */
  id: string
  recipientId: string
  text?: string
  attachmentId?: string
  at: number
}

export class FakeGraph implements SenderGraph {
  delivered: Delivered[] = []
  uploads = 0
  /** Faults applied to the next sends, in order. */
  faults: Fault[] = []
  readFaults: Fault[] = []
  onSend?: (req: SendRequest) => void

  async send(_pageId: string, _token: string, req: SendRequest) {
    this.onSend?.(req)
    const fault = this.faults.shift()
    if (fault && fault !== 'lost-response') throw new GraphError({ ...fault, message: `fault ${fault.kind}` })
    const attachmentId =
      req.attachment && 'attachmentId' in req.attachment ? req.attachment.attachmentId : undefined
    const id = `m${this.delivered.length + 1}`
    // An opt-in request shows in the conversation with its title as the text, as on the sandbox.
    const text = req.text ?? req.optIn?.title
    this.delivered.push({ id, recipientId: req.recipientId, text, attachmentId, at: Date.now() })
    if (fault === 'lost-response') throw new GraphError({ kind: 'network', message: 'Failed to fetch' })
    return { recipient_id: req.recipientId, message_id: id }
  }

  async uploadAttachment() {
    this.uploads++
    return { attachment_id: `att${this.uploads}` }
  }

  async messages(conversationId: string) {
    const fault = this.readFaults.shift()
    if (fault && fault !== 'lost-response') throw new GraphError({ ...fault, message: `fault ${fault.kind}` })
    const recipientId = conversationId.replace(/^c/, '')
    const data: ChatMessage[] = this.delivered
      .filter((d) => d.recipientId === recipientId)
      .map((d) => ({
        id: d.id,
        created_time: new Date(d.at).toISOString(),
        from: { id: PAGE, name: 'Page' },
        to: { data: [{ id: recipientId, name: 'x' }] },
        message: d.text ?? '',
        ...(d.attachmentId ? { attachments: { data: [{ id: d.attachmentId }] } } : {}),
      }))
    return { data: data.reverse() }
  }

  sentTo(recipientId: string) {
    return this.delivered.filter((d) => d.recipientId === recipientId && d.text !== undefined).length
  }
}

export function makeDeps(graph: FakeGraph, api: FakeApi, over: Partial<Omit<RunDeps, 'channel'>> = {}) {
  const waker = createWaker()
  let sub: Subscription = api.sub
  const tokens = new Map([[PAGE, 'page-token']])
  const refused = new Set<string>()
  const deps: RunDeps & {
    channel: MemoryChannel
    tokens: Map<string, string>
    refused: Set<string>
    wake(): void
  } = {
    graph,
    api,
    channel: new MemoryChannel(),
    tokens,
    refused,
    pageToken: (id) => tokens.get(id),
    dropPageToken: (id) => tokens.delete(id),
    tokenRefused: (id) => refused.has(id),
    subscription: () => sub,
    setSubscription: (s) => (sub = s),
    now: () => Date.now(),
    random: Math.random,
    // Real waits, capped so backoffs of seconds take milliseconds in tests.
    sleep: (ms) => waker.sleep(Math.min(ms, 5)),
    wake: waker.wake,
    pacingScale: 0.001,
    ...over,
  }
  return deps
}
