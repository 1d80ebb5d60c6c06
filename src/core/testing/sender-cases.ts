/**
 * The cases every bulk sender must pass, written once and run against both stores: the device's (IndexedDB,
 * src/worker/sender-cases.test.ts in Chromium) and the server's (SQL, src/server/bulk/sender-cases.test.ts on
 * PGlite and PostgreSQL). A case is an audience, the network's answers to the sends, and what must follow.
 */
import { GraphError } from '../graph/errors.ts'
import type { ChatMessage, GraphErrorKind, SendRequest } from '../graph/types.ts'
import type { SenderGraph } from '../bulk/ports.ts'
import { TRANSIENT_MAX_ATTEMPTS } from '../bulk/pacer.ts'

/**
 * The network's answer to one send: a failure of a class, delivered without its answer arriving, delivered
 * while another run took the job's lease (its answer then comes to a run whose epoch is stale), or delivered
 * and then the store's write of the result fails once (a transaction chosen as a deadlock's victim, a lost
 * database connection, a storage error).
 */
export type Fault =
  { kind: GraphErrorKind; message?: string } | 'lost-response' | 'lease-moves' | 'record-fails'

export interface SenderCase {
  name: string
  recipients: number
  /** Answers to the sends in order (`undefined`: delivered). */
  faults: (Fault | undefined)[]
  /** The owner pauses the job during the pacing wait that follows this many deliveries. */
  pauseAfter?: number
  expect: {
    /** How the last run ends (a paused job on the server: taken back by the device, so no longer its own). */
    state: 'finished' | 'stopped' | 'paused'
    /**
     * The job's sent count as each run that lost the lease ended (a new run follows each): a result the lost
     * run sent under its stale epoch is not counted.
     */
    lostAt?: number[]
    /** Recipients (1-based) that received the text, in order; each exactly once. */
    delivered: number[]
    rejected: number
    stopReason?: string
  }
}

export const senderCases: SenderCase[] = [
  {
    name: 'sends everyone once, in order, and finishes',
    recipients: 4,
    faults: [],
    expect: { state: 'finished', delivered: [1, 2, 3, 4], rejected: 0 },
  },
  {
    name: 'stops on a blocked page, with the class and the network text as the reason',
    recipients: 4,
    faults: [undefined, { kind: 'page_blocked', message: 'The page is restricted' }],
    expect: {
      state: 'stopped',
      delivered: [1],
      rejected: 0,
      stopReason: 'page_blocked:The page is restricted',
    },
  },
  {
    name: 'rejects a recipient outside the window and goes on',
    recipients: 3,
    faults: [undefined, { kind: 'outside_window', message: 'outside the window' }],
    expect: { state: 'finished', delivered: [1, 3], rejected: 1 },
  },
  {
    name: 'retries a transient error and sends that recipient once',
    recipients: 3,
    faults: [{ kind: 'transient', message: 'try again' }],
    expect: { state: 'finished', delivered: [1, 2, 3], rejected: 0 },
  },
  {
    name: 'rejects a recipient only after the bound of transient errors',
    recipients: 2,
    faults: Array.from({ length: TRANSIENT_MAX_ATTEMPTS }, () => ({
      kind: 'transient' as const,
      message: 'x',
    })),
    expect: { state: 'finished', delivered: [2], rejected: 1 },
  },
  {
    name: 'reconciles a send whose answer was lost and never sends it twice',
    recipients: 3,
    faults: [undefined, 'lost-response'],
    expect: { state: 'finished', delivered: [1, 2, 3], rejected: 0 },
  },
  {
    name: 'reconciles the lost answer of the last send and finishes without sending it again',
    recipients: 2,
    faults: [undefined, 'lost-response'],
    expect: { state: 'finished', delivered: [1, 2], rejected: 0 },
  },
  {
    name: 'refuses the result of a run whose lease moved on; the next run reconciles it, never sending twice',
    recipients: 3,
    faults: [undefined, 'lease-moves'],
    expect: { state: 'finished', delivered: [1, 2, 3], rejected: 0, lostAt: [1] },
  },
  {
    name: 'reconciles a send whose result could not be written and never sends it twice',
    recipients: 3,
    faults: [undefined, 'record-fails'],
    expect: { state: 'finished', delivered: [1, 2, 3], rejected: 0 },
  },
  {
    name: 'reads the job after the pacing wait and sends nothing more once the owner paused it',
    recipients: 4,
    faults: [],
    pauseAfter: 2,
    expect: { state: 'paused', delivered: [1, 2], rejected: 0 },
  },
]

/**
 * What a store under test does for the cases: move the job's lease to another run, pause the job, make its
 * next write of a recipient's result fail.
 */
export interface CaseStore {
  moveLease(): Promise<void>
  pause(): Promise<void>
  failNextRecord(): void
}

/**
 * The clock of a run under a case: time moves only by the run's waits, so every pacing wait is slept however
 * slow the store, and the owner's pause lands during the wait after `pauseAfter` deliveries.
 */
export function caseClock(c: SenderCase, graph: ScriptedGraph, store: CaseStore) {
  let now = Date.now()
  let paused = false
  return {
    now: () => now,
    sleep: async (ms: number) => {
      if (!paused && c.pauseAfter !== undefined && graph.delivered.length >= c.pauseAfter) {
        paused = true
        await store.pause()
      }
      now += Math.max(1, ms)
      await new Promise((resolve) => setTimeout(resolve, 0))
    },
  }
}

/** A network that answers the sends as a case says and shows what was delivered in the conversations. */
export class ScriptedGraph implements SenderGraph {
  delivered: { recipientId: string; text: string; at: number }[] = []
  constructor(
    readonly pageId: string,
    private readonly faults: (Fault | undefined)[],
    /** The conversation id of a recipient id, as the store under test names them. */
    private readonly conversationOf: (recipientId: string) => string,
    private readonly store?: CaseStore,
  ) {}

  async send(_pageId: string, _token: string, req: SendRequest) {
    const fault = this.faults.shift()
    if (fault && typeof fault === 'object')
      throw new GraphError({ kind: fault.kind, message: fault.message ?? `fault ${fault.kind}` })
    this.delivered.push({ recipientId: req.recipientId, text: req.text ?? '', at: Date.now() })
    if (fault === 'lease-moves') await this.store?.moveLease()
    if (fault === 'record-fails') this.store?.failNextRecord()
    if (fault === 'lost-response') throw new GraphError({ kind: 'network', message: 'Failed to fetch' })
    return { recipient_id: req.recipientId, message_id: `m${this.delivered.length}` }
  }

  async uploadAttachment() {
    return { attachment_id: 'a1' }
  }

  async messages(conversationId: string) {
    const data: ChatMessage[] = this.delivered
      .filter((d) => this.conversationOf(d.recipientId) === conversationId)
      .map((d, i) => ({
        id: `m${i}`,
        created_time: new Date(d.at).toISOString(),
        from: { id: this.pageId, name: 'Page' },
        to: { data: [{ id: d.recipientId, name: 'R' }] },
        message: d.text,
      }))
    return { data: data.reverse() }
  }
}
