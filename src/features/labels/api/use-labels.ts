/** The page's custom labels and its customers' labels as the screens read them, and the changes to them. */
import { useCallback, useEffect, useState } from 'react'
import { useLingui } from '@lingui/react/macro'
import { useLiveQuery } from 'dexie-react-hooks'
import { notify } from '../../../shared/notifications'
import { postLabelsChanged } from '../../../shared/api/conversation-states.ts'
import { useLabelsVersion } from '../../../shared/live/labels.ts'
import { db } from '../../../device/db/db.ts'
import type { LabelsGraph, PageLabel } from '../../../core/graph/labels.ts'
import {
  cachedPageLabels,
  deleteLabel,
  ensureLabel,
  labelsByCustomer,
  refreshCustomerLabels,
  refreshPageLabels,
  setLabel,
} from '../../../shared/labels/store.ts'

export type WithToken = <T>(call: (token: string) => Promise<T>) => Promise<T>

const NONE: PageLabel[] = []
const NO_IDS: string[] = []

/**
 * The page's labels (the device's copy, read again from the network once the page token is there, and when
 * another person of the page changed them).
 */
export function usePageLabels(pageId: string, graph: LabelsGraph, withToken: WithToken, ready: boolean) {
  const changed = useLabelsVersion(pageId)
  useEffect(() => {
    if (!ready) return
    void withToken((token) => refreshPageLabels(graph, pageId, token)).catch(() => undefined)
  }, [graph, pageId, ready, withToken, changed])
  return useLiveQuery(() => cachedPageLabels(pageId), [pageId]) ?? NONE
}

/**
 * One customer's label ids, read again from the network when the chat opens and when another person of the
 * page changed them.
 */
export function useCustomerLabelIds(
  pageId: string,
  customerId: string,
  graph: LabelsGraph,
  withToken: WithToken,
  ready: boolean,
): string[] {
  const changed = useLabelsVersion(pageId, customerId)
  useEffect(() => {
    if (!ready || !customerId) return
    void withToken((token) => refreshCustomerLabels(graph, pageId, token, customerId)).catch(() => undefined)
  }, [customerId, graph, pageId, ready, withToken, changed])
  return (
    useLiveQuery(() => db.customerLabels.get(`${pageId}:${customerId}`), [pageId, customerId])?.labelIds ??
    NO_IDS
  )
}

/**
 * The label ids on this device of every customer of the page, or of `customerIds` only (watched alone: labels
 * stored for others draw nothing again); nothing is read (or watched) without a page.
 */
export function useLabelsByCustomer(
  pageId: string | undefined,
  customerIds?: readonly string[],
): Map<string, string[]> | undefined {
  return useLiveQuery(
    () => (pageId ? labelsByCustomer(pageId, customerIds) : undefined),
    [pageId, customerIds],
  )
}

/** Changes to labels; a refusal of the network is told in a notice with its words. */
export interface LabelActions {
  busy: boolean
  /** Puts the label on the customers (or takes it off). */
  toggle(labelId: string, customerIds: readonly string[], on: boolean): Promise<void>
  /** The page's label of that name (created when it has none), put on the customers. */
  create(name: string, customerIds: readonly string[]): Promise<void>
  /** Deletes the page's label on the network; it comes off every customer. */
  remove(labelId: string): Promise<void>
}

export function useLabelActions(pageId: string, graph: LabelsGraph, withToken: WithToken): LabelActions {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  // Once the network took the change, the page's other people are told (their open chats read it again).
  const run = useCallback(
    async (work: (token: string) => Promise<unknown>, customerIds: readonly string[]) => {
      setBusy(true)
      try {
        await withToken(work)
        void postLabelsChanged(pageId, customerIds).catch(() => undefined)
      } catch (err) {
        notify({
          kind: 'error',
          title: t`Facebook did not change the labels.`,
          detail: err instanceof Error ? err.message : String(err),
        })
      } finally {
        setBusy(false)
      }
    },
    [pageId, t, withToken],
  )
  const toggle = useCallback(
    (labelId: string, customerIds: readonly string[], on: boolean) =>
      run((token) => setLabel(graph, pageId, token, labelId, customerIds, on), customerIds),
    [graph, pageId, run],
  )
  const create = useCallback(
    (name: string, customerIds: readonly string[]) =>
      run(async (token) => {
        const label = await ensureLabel(graph, pageId, token, name)
        await setLabel(graph, pageId, token, label.id, customerIds, true)
      }, customerIds),
    [graph, pageId, run],
  )
  const remove = useCallback(
    (labelId: string) => run((token) => deleteLabel(graph, pageId, token, labelId), []),
    [graph, pageId, run],
  )
  return { busy, toggle, create, remove }
}
