/**
 * The Graph calls of the network's Custom Labels API, with a page token: the page's labels, a new label, a
 * label deleted, a label put on or taken off a person (their PSID) and a person's labels. A label's name is
 * `page_label_name`. The reference has no call that renames a label: a new name is a new label. The shapes are recorded with their sources in tests/fixtures/graph/labels/. Every call goes
 * through the transport of the app's Graph client (client.ts): it resolves with the network's answer or
 * rejects with a classified GraphError.
 */
import { BATCH_MAX, batchCalls } from './batch.ts'
import { createGraphTransport, type GraphClientOptions } from './client.ts'
import { LABEL_NAME_MAX } from '../constants/limits.ts'
import type { Page } from './types.ts'

export { LABEL_NAME_MAX }

export interface PageLabel {
  id: string
  name: string
}

export const LABEL_FIELDS = 'id,page_label_name'
/** At most this many pages of 100 labels are read. */
const LABEL_PAGES_MAX = 20

interface LabelEntry {
  id: string | number
  page_label_name?: string
  name?: string
}

const toLabel = (l: LabelEntry): PageLabel => ({
  id: String(l.id),
  name: l.page_label_name ?? l.name ?? '',
})

export interface LabelsGraph {
  /** Every label of the page, in the network's order. */
  pageLabels(pageId: string, pageToken: string): Promise<PageLabel[]>
  /** Answers the new label's id. */
  createLabel(pageId: string, pageToken: string, name: string): Promise<string>
  deleteLabel(labelId: string, pageToken: string): Promise<void>
  addLabel(labelId: string, pageToken: string, psid: string): Promise<void>
  removeLabel(labelId: string, pageToken: string, psid: string): Promise<void>
  /** The labels on one person of the page. */
  userLabels(psid: string, pageToken: string): Promise<PageLabel[]>
  /**
   * The labels on each of these people (at most BATCH_MAX) in one batched call. A person the network refused
   * is not in the answer; the whole batch refused rejects.
   */
  usersLabels(psids: readonly string[], pageToken: string): Promise<Map<string, PageLabel[]>>
}

export { BATCH_MAX }

export function createLabelsGraph(options: GraphClientOptions): LabelsGraph {
  const transport = createGraphTransport(options)
  const { call, paged } = transport

  async function all(path: string, token: string): Promise<PageLabel[]> {
    const out: PageLabel[] = []
    let after: string | undefined
    for (let i = 0; i < LABEL_PAGES_MAX; i++) {
      const page: Page<LabelEntry> = await paged<LabelEntry>(path, token, {
        fields: LABEL_FIELDS,
        limit: 100,
        after,
      })
      out.push(...page.data.map(toLabel))
      after = page.paging?.next ? page.paging.cursors?.after : undefined
      if (!after) break
    }
    return out
  }

  return {
    pageLabels: (pageId, token) => all(`${pageId}/custom_labels`, token),
    createLabel: async (pageId, token, name) =>
      String(
        (
          await call<{ id: string | number }>(
            'POST',
            `${pageId}/custom_labels`,
            { access_token: token },
            { page_label_name: name },
          )
        ).id,
      ),
    deleteLabel: async (labelId, token) => {
      await call('DELETE', labelId, { access_token: token })
    },
    addLabel: async (labelId, token, psid) => {
      await call('POST', `${labelId}/label`, { access_token: token }, { user: psid })
    },
    removeLabel: async (labelId, token, psid) => {
      await call('DELETE', `${labelId}/label`, { access_token: token, user: psid })
    },
    userLabels: (psid, token) => all(`${psid}/custom_labels`, token),
    usersLabels: async (psids, token) => {
      const query = new URLSearchParams({ fields: LABEL_FIELDS, limit: '100' })
      const answers = await batchCalls<Page<LabelEntry>>(
        transport,
        token,
        psids.map((psid) => ({
          method: 'GET',
          relativeUrl: `${encodeURIComponent(psid)}/custom_labels?${query}`,
        })),
      )
      const out = new Map<string, PageLabel[]>()
      await Promise.all(
        answers.map(async (answer, i) => {
          const psid = psids[i]!
          if (!answer.ok || !Array.isArray(answer.data.data)) return
          if (!answer.data.paging?.next) return void out.set(psid, answer.data.data.map(toLabel))
          // More than a page of labels on one person: the rest are read the usual way.
          out.set(psid, await all(`${psid}/custom_labels`, token).catch(() => answer.data.data.map(toLabel)))
        }),
      )
      return out
    },
  }
}

/** A label name as typed: trimmed, inner spaces collapsed, at most LABEL_NAME_MAX characters. */
export function cleanLabelName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').slice(0, LABEL_NAME_MAX)
}

/** The page's label of that name, compared as the Page Inbox does (case-insensitive). */
export function labelNamed(labels: readonly PageLabel[], name: string): PageLabel | undefined {
  const key = cleanLabelName(name).toLocaleLowerCase()
  return labels.find((l) => l.name.toLocaleLowerCase() === key)
}
