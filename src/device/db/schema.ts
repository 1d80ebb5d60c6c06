/**
 * The versions of the app's Dexie database (src/device/db/db.ts), as one ordered list.
 */
import type { Dexie, Transaction } from 'dexie'

/** One step of the schema: the stores it adds or changes (null deletes one) and how existing rows move. */
export interface SchemaVersion {
  version: number
  stores: Record<string, string | null>
  upgrade?: (tx: Transaction) => PromiseLike<unknown>
}

/**
 * Every schema version ever released, in order. APPEND-ONLY: a change is a new entry at the end, numbered
 * above the highest number ever released (the next is 37). Never reuse, insert or renumber a number, and
 * never edit a released entry: a device already past a number never runs a step inserted below it, so an
 * inserted migration silently never happens there. (Numbers up to 30 once came in per-area ranges, which is
 * why they jump; 10 shipped together with 20.) src/device/db/schema.test.ts checks the order, and
 * src/device/db/upgrade.test.ts opens a database of every earlier release with this list.
 */
export const schemaVersions: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      conversations: 'key, [pageId+updatedAt], pageId',
      messages: 'key, [pageId+conversationId+createdAt], [pageId+conversationId]',
      bulkJobs: 'id, state, pageId, createdAt',
      bulkRecipients: 'key, [jobId+order], [jobId+state], jobId',
      touchOutbox: 'key, jobId, createdAt',
      replyOutbox: 'id, state, [pageId+conversationId], createdAt',
    },
  },
  // What the page sidebar shows of each opened page (no token), for offline reading.
  { version: 10, stores: { inboxPages: 'id' } },
  // The next recipient to send is the lowest `order` in a state, without a scan.
  {
    version: 20,
    stores: { bulkRecipients: 'key, [jobId+order], [jobId+state], jobId, [jobId+state+order]' },
  },
  // A 100,000-recipient job is written in one go; the two indexes the sender never needs go.
  { version: 21, stores: { bulkRecipients: 'key, [jobId+order], [jobId+state+order]' } },
  // The audience is stored as compact chunks (about 1,000 recipients a row), written in one transaction at job
  // start; a `bulkRecipients` row exists only once the sender reaches that recipient (the write-ahead
  // `sending`) or when a resumed job must remember a result. A recipient with no row and an index at or past
  // the job's `cursor` is pending. Jobs written before this version have a row for every recipient and no
  // chunks: their cursor is their total, so their `pending` rows are sent as before.
  {
    version: 22,
    stores: { bulkRecipientChunks: '[jobId+chunk]' },
    upgrade: (tx) =>
      tx
        .table('bulkJobs')
        .toCollection()
        .modify((job: { total: number; cursor?: number }) => {
          if (job.cursor === undefined) job.cursor = job.total
        }),
  },
  // Whose data this is (src/shared/session/device-data.ts), so another user signing in never sees it.
  { version: 30, stores: { meta: 'key' } },
  // How far the inbox's background sync of each page's conversations got (a cursor to resume from).
  { version: 31, stores: { inboxSync: 'pageId' } },
  // The live connection: a message event finds its conversation by customer; the delivery and read watermarks
  // of each (page, customer) and the delivered/read counts of each bulk message, kept for offline reading.
  {
    version: 32,
    stores: {
      conversations: 'key, [pageId+updatedAt], pageId, [pageId+customerId]',
      receipts: 'key',
      bulkReceipts: 'id',
    },
  },
  // Every job records its kind as its server record was created: a job with a campaign budget or any
  // marketing recipient is a marketing job, an opt-in job requests opt-ins, any other is standard.
  {
    version: 33,
    stores: {},
    upgrade: async (tx) => {
      const withMarketing = new Set<string>()
      await tx.table('bulkRecipientChunks').each((p: { jobId: string; ways?: string[] }) => {
        if (p.ways?.includes('marketing')) withMarketing.add(p.jobId)
      })
      await tx
        .table('bulkJobs')
        .toCollection()
        .modify((job: { id: string; kind?: string; marketing?: unknown; contentKind?: string }) => {
          if (job.kind) return
          if (job.contentKind === 'optin_request') job.kind = 'optin_request'
          else if (job.marketing || withMarketing.has(job.id)) job.kind = 'marketing'
          else job.kind = 'standard'
        })
    },
  },
  // Who is waiting for an answer: the server's state of each (page, customer), for the list's filters offline.
  { version: 36, stores: { conversationStates: 'key, pageId' } },
  // The pages' custom labels and the labels read on each customer (the network's Custom Labels API), for the
  // inbox's label filter and the wizard's label counts, online and offline.
  { version: 37, stores: { pageLabels: 'key, pageId', customerLabels: 'key, pageId, *labelIds' } },
  // A job may send a utility message (kind and content `utility`, with its template in `utility`): no rows move.
  { version: 38, stores: {} },
]

/** Declares every version of `schemaVersions` on a Dexie instance (the app's database, or a test's copy). */
export function declareSchema<T extends Dexie>(target: T): T {
  for (const step of schemaVersions) {
    const version = target.version(step.version).stores(step.stores)
    if (step.upgrade) version.upgrade(step.upgrade)
  }
  return target
}
