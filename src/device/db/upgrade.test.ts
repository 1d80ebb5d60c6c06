/**
 * A device keeps the database of the release it last ran: every earlier release's database (created from its
 * schema as git history has it, with rows in it) must open with the current schema, keep its rows and get the
 * upgrades meant for it.
 */
import { Dexie } from 'dexie'
import { afterEach, describe, expect, it } from 'vitest'
import { type ReleasedSchema, releasedSchemas } from './fixtures/released-schemas.ts'
import { declareSchema, schemaVersions } from './schema.ts'

const current = schemaVersions.at(-1)!.version
const opened: Dexie[] = []

afterEach(async () => {
  const databases = opened.splice(0)
  for (const database of databases) database.close()
  for (const name of new Set(databases.map((d) => d.name))) await Dexie.delete(name)
})

const row = {
  conversations: {
    key: 'p1:c1',
    pageId: 'p1',
    id: 'c1',
    updatedAt: 1_700_000_000_000,
    customerId: 'u1',
    customerName: 'Dara',
    snippet: 'Hello',
    unreadCount: 1,
    canReply: true,
  },
  messages: {
    key: 'p1:m1',
    pageId: 'p1',
    conversationId: 'c1',
    id: 'm1',
    createdAt: 1_700_000_000_000,
    fromId: 'u1',
    fromName: 'Dara',
    toId: 'p1',
    text: 'Hello',
    imageUrls: [],
  },
  bulkRecipients: {
    key: 'j1:u1',
    jobId: 'j1',
    recipientId: 'u1',
    name: 'Dara',
    conversationId: 'c1',
    order: 0,
    state: 'pending',
    attempts: 0,
  },
  touchOutbox: { key: 'j1:u1', jobId: 'j1', recipientId: 'u1', body: { a: 1 }, createdAt: 1, attempts: 0 },
  replyOutbox: {
    id: 'r1',
    pageId: 'p1',
    conversationId: 'c1',
    recipientId: 'u1',
    text: 'Thanks',
    createdAt: 1,
    state: 'pending',
  },
  inboxPages: { id: 'p1', name: 'Shop' },
  bulkRecipientChunks: { jobId: 'j1', chunk: 0, ids: ['u1', 'u2', 'u3'] },
  meta: { key: 'owner', value: '4242' },
  inboxSync: { pageId: 'p1', after: 'QVFI', synced: 100, done: false, startedAt: 1 },
  receipts: { key: 'p1:u1', pageId: 'p1', customerId: 'u1', delivered: 2, read: 1 },
  bulkReceipts: { id: 'j1', pageId: 'p1', delivered: 3, read: 1 },
  pageLabels: { key: 'p1:l1', pageId: 'p1', id: 'l1', name: 'VIP' },
  customerLabels: { key: 'p1:u1', pageId: 'p1', customerId: 'u1', labelIds: ['l1'], at: 1 },
  conversationStates: {
    key: 'p1:u1',
    pageId: 'p1',
    customerId: 'u1',
    customerAt: '2026-06-01T10:00:00.000Z',
    customerText: 'Hello',
    unread: 1,
    answeredAt: null,
    doneAt: null,
    doneBy: null,
    broadcastAt: null,
    broadcastText: null,
    needsReply: true,
  },
} as const

function job(release: ReleasedSchema) {
  const base = {
    id: 'j1',
    pageId: 'p1',
    pageName: 'Shop',
    text: 'Sale today',
    messagingType: 'MESSAGE_TAG',
    labels: [],
    total: 10,
    brandedFrom: -1,
    state: 'running',
    createdAt: 1,
    nextSendAt: 0,
    lease: 1,
    sent: 4,
    rejected: 0,
    skipped: 0,
  }
  // From version 22 a job records how far through its stored audience the sender is, from 33 its kind.
  const withCursor = release.version >= 22 ? { ...base, cursor: 3 } : base
  return release.version >= 33 ? { ...withCursor, kind: 'standard' } : withCursor
}

/** A database as the release left it on a device, with a row in each of its tables. */
async function createReleased(release: ReleasedSchema): Promise<string> {
  const name = `pagecast-upgrade-from-${release.version}`
  await Dexie.delete(name)
  const old = new Dexie(name)
  for (const step of release.versions) old.version(step.version).stores(step.stores)
  await old.open()
  opened.push(old)
  expect(old.verno).toBe(release.version)
  await old.transaction('rw', old.tables, async () => {
    for (const table of old.tables)
      await table.put(table.name === 'bulkJobs' ? job(release) : row[table.name as keyof typeof row])
  })
  old.close()
  return name
}

describe('upgrading the database of an earlier release', () => {
  it('has a fixture for every version the current schema has released so far', () => {
    expect(releasedSchemas.map((r) => r.version)).toContain(current)
  })

  for (const release of releasedSchemas) {
    it(`opens a version ${release.version} database (${release.commit}) without losing a row`, async () => {
      const name = await createReleased(release)
      const tablesBefore = release.versions.flatMap((v) => Object.keys(v.stores))

      const upgraded = declareSchema(new Dexie(name))
      opened.push(upgraded)
      await upgraded.open()
      expect(upgraded.verno).toBe(current)
      // Every table of the current schema exists, including those added after this release.
      const currentTables = [...new Set(schemaVersions.flatMap((v) => Object.keys(v.stores)))]
      expect(upgraded.tables.map((t) => t.name).sort()).toEqual(currentTables.sort())

      for (const table of new Set(tablesBefore)) {
        if (table === 'bulkJobs') continue
        const key =
          table === 'bulkRecipientChunks' ? ['j1', 0] : Object.values(row[table as keyof typeof row])[0]
        expect(await upgraded.table(table).get(key), table).toEqual(row[table as keyof typeof row])
      }
      // Version 22's upgrade: a job from before it has a row per recipient, so its cursor is its total.
      // Version 33's: every job has its kind (a job of an earlier release sent standard messages).
      const expectedJob = {
        ...(release.version >= 22 ? job(release) : { ...job(release), cursor: 10 }),
        kind: 'standard',
      }
      expect(await upgraded.table('bulkJobs').get('j1')).toEqual(expectedJob)

      // The current indexes answer queries on the old rows.
      expect(await upgraded.table('bulkJobs').where('state').equals('running').count()).toBe(1)
      expect(
        await upgraded
          .table('bulkRecipients')
          .where('[jobId+state+order]')
          .equals(['j1', 'pending', 0])
          .count(),
      ).toBe(1)
      expect(await upgraded.table('conversations').where('[pageId+updatedAt]').above(['p1', 0]).count()).toBe(
        1,
      )
    })
  }
})
