/**
 * Labels changed by the page's other people (the live `labels` event): the network tells no one, so the chat
 * and the page's label list that show them read them again from the network. Kept in memory as a version per
 * page and per customer, which the label hooks watch.
 */
import { useSyncExternalStore } from 'react'
import type { LabelsEvent } from '../../core/contracts/conversation-states.ts'

const versions = new Map<string, number>()
const listeners = new Set<() => void>()

const pageKey = (pageId: string) => `${pageId}:`
const customerKey = (pageId: string, customerId: string) => `${pageId}:${customerId}`

function bump(key: string) {
  versions.set(key, (versions.get(key) ?? 0) + 1)
}

/** Another person of the page changed these customers' labels (none named: a label of the page was deleted). */
export function noteLabelsChanged(e: LabelsEvent): void {
  bump(pageKey(e.pageId))
  for (const id of e.customerIds) bump(customerKey(e.pageId, id))
  for (const l of [...listeners]) l()
}

/** How many times the page's labels (or, with a customer, that customer's) were changed by others. */
export function labelsVersion(pageId: string, customerId?: string): number {
  return versions.get(customerId ? customerKey(pageId, customerId) : pageKey(pageId)) ?? 0
}

/** `labelsVersion`, kept current. */
export function useLabelsVersion(pageId: string, customerId?: string): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => labelsVersion(pageId, customerId),
  )
}
