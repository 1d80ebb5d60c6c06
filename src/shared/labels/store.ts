/**
 * The pages' custom labels on this device: read from the network's Custom Labels API (src/core/graph//
 * labels.ts) and kept in the local database, so the inbox's label filter and the wizard's counts work over
 * every synced conversation, offline too. Every change goes to the network first and is written here once it
 * answered, so what shows here is what the Page Inbox shows.
 */
import { db, type CachedCustomerLabels, type CachedPageLabel } from '../../device/db/db.ts'
import {
  BATCH_MAX,
  cleanLabelName,
  labelNamed,
  type LabelsGraph,
  type PageLabel,
} from '../../core/graph/labels.ts'

/** How long a customer's labels read from the network count as current. */
export const CUSTOMER_LABELS_FRESH_MS = 10 * 60_000
/**
 * Batches of customers (BATCH_MAX each, one call) read at the same time. What a batch read is stored in one
 * write: a page's thousand customers are some twenty calls and twenty writes, not a thousand of each, and the
 * screens that show labels read them again twenty times.
 */
const READ_CONCURRENCY = 2

const labelKey = (pageId: string, id: string) => `${pageId}:${id}`
const customerKey = (pageId: string, customerId: string) => `${pageId}:${customerId}`

/** The page's labels by name, as the local database has them. */
export async function cachedPageLabels(pageId: string): Promise<PageLabel[]> {
  const rows = await db.pageLabels.where('pageId').equals(pageId).toArray()
  return rows.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name))
}

/** Reads the page's labels from the network and replaces the device's list with them. */
export async function refreshPageLabels(graph: LabelsGraph, pageId: string, token: string) {
  const labels = await graph.pageLabels(pageId, token)
  const rows: CachedPageLabel[] = labels.map((l) => ({ key: labelKey(pageId, l.id), pageId, ...l }))
  await db.transaction('rw', db.pageLabels, async () => {
    await db.pageLabels.where('pageId').equals(pageId).delete()
    await db.pageLabels.bulkPut(rows)
  })
  return labels
}

function customerRow(pageId: string, customerId: string, labelIds: readonly string[], at: number) {
  const row: CachedCustomerLabels = {
    key: customerKey(pageId, customerId),
    pageId,
    customerId,
    labelIds: [...new Set(labelIds)],
    at,
  }
  return row
}

async function putCustomer(pageId: string, customerId: string, labelIds: string[]) {
  await db.customerLabels.put(customerRow(pageId, customerId, labelIds, Date.now()))
}

/** Reads one customer's labels from the network; labels the device did not know yet join the page's list. */
export async function refreshCustomerLabels(
  graph: LabelsGraph,
  pageId: string,
  token: string,
  customerId: string,
): Promise<PageLabel[]> {
  const labels = await graph.userLabels(customerId, token)
  await storeCustomersLabels(pageId, [{ customerId, labels }])
  return labels
}

/** The page's label of that name, created on the network when the page has none. */
export async function ensureLabel(
  graph: LabelsGraph,
  pageId: string,
  token: string,
  typed: string,
): Promise<PageLabel> {
  const name = cleanLabelName(typed)
  const known = labelNamed(await cachedPageLabels(pageId), name)
  if (known) return known
  const onNetwork = labelNamed(await refreshPageLabels(graph, pageId, token), name)
  if (onNetwork) return onNetwork
  const id = await graph.createLabel(pageId, token, name)
  await db.pageLabels.put({ key: labelKey(pageId, id), pageId, id, name })
  return { id, name }
}

/** Puts the label on (or takes it off) each customer, one network call each; answers those it changed. */
export async function setLabel(
  graph: LabelsGraph,
  pageId: string,
  token: string,
  labelId: string,
  customerIds: readonly string[],
  on: boolean,
): Promise<string[]> {
  const done: string[] = []
  for (const customerId of customerIds) {
    if (on) await graph.addLabel(labelId, token, customerId)
    else await graph.removeLabel(labelId, token, customerId)
    const row = await db.customerLabels.get(customerKey(pageId, customerId))
    const ids = (row?.labelIds ?? []).filter((id) => id !== labelId)
    await putCustomer(pageId, customerId, on ? [...ids, labelId] : ids)
    done.push(customerId)
  }
  return done
}

/** Deletes the label on the network; it goes from every customer here too. */
export async function deleteLabel(graph: LabelsGraph, pageId: string, token: string, labelId: string) {
  await graph.deleteLabel(labelId, token)
  await db.transaction('rw', db.pageLabels, db.customerLabels, async () => {
    await db.pageLabels.delete(labelKey(pageId, labelId))
    await db.customerLabels
      .where('labelIds')
      .equals(labelId)
      .modify((row) => {
        row.labelIds = row.labelIds.filter((id) => id !== labelId)
      })
  })
}

/** Stores customers' labels read from the network (labels the device did not know yet join the page's list). */
async function storeCustomersLabels(
  pageId: string,
  read: readonly { customerId: string; labels: readonly PageLabel[] }[],
): Promise<void> {
  const labels = new Map(read.flatMap((r) => r.labels.map((l) => [l.id, l] as const)))
  const at = Date.now()
  await db.transaction('rw', db.pageLabels, db.customerLabels, async () => {
    await db.pageLabels.bulkPut(
      [...labels.values()].map((l) => ({ key: labelKey(pageId, l.id), pageId, ...l })),
    )
    await db.customerLabels.bulkPut(
      read.map(({ customerId, labels }) =>
        customerRow(
          pageId,
          customerId,
          labels.map((l) => l.id),
          at,
        ),
      ),
    )
  })
}

/**
 * Reads the labels of the customers whose labels the device has not read lately, BATCH_MAX in one batched
 * call, and stores each batch's in one write, reporting how many are done; stops when the signal aborts. A
 * customer (or a batch) the network refuses keeps what was known, and the next read tries again.
 */
export async function readCustomersLabels(
  graph: LabelsGraph,
  pageId: string,
  token: string,
  customerIds: readonly string[],
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; now?: number } = {},
): Promise<void> {
  const now = opts.now ?? Date.now()
  const known = await db.customerLabels.where('pageId').equals(pageId).toArray()
  const fresh = new Set(known.filter((r) => now - r.at < CUSTOMER_LABELS_FRESH_MS).map((r) => r.customerId))
  const todo = [...new Set(customerIds)].filter((id) => !fresh.has(id))
  let done = 0
  opts.onProgress?.(0, todo.length)
  let next = 0
  const worker = async () => {
    while (next < todo.length && !opts.signal?.aborted) {
      const chunk = todo.slice(next, next + BATCH_MAX)
      next += chunk.length
      const read = await graph.usersLabels(chunk, token).catch(() => new Map<string, PageLabel[]>())
      const batch = chunk.flatMap((customerId) => {
        const labels = read.get(customerId)
        return labels ? [{ customerId, labels }] : []
      })
      if (batch.length > 0) await storeCustomersLabels(pageId, batch)
      done += chunk.length
      opts.onProgress?.(done, todo.length)
    }
  }
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker))
}

/** Another person changed these customers' labels: the device's copy of them is no longer current. */
export async function staleCustomerLabels(pageId: string, customerIds: readonly string[]): Promise<void> {
  const keys = customerIds.map((id) => customerKey(pageId, id))
  await db.customerLabels.where('key').anyOf(keys).modify({ at: 0 })
}

/** Each customer's label ids, as the device knows them: the page's every customer, or only `customerIds`. */
export async function labelsByCustomer(
  pageId: string,
  customerIds?: readonly string[],
): Promise<Map<string, string[]>> {
  const rows = customerIds
    ? (await db.customerLabels.bulkGet(customerIds.map((id) => customerKey(pageId, id)))).filter((r) => !!r)
    : await db.customerLabels.where('pageId').equals(pageId).toArray()
  return new Map(rows.map((r) => [r.customerId, r.labelIds]))
}
