/**
 * One answer of the app's local database about a page's inbox (opened, read, closed, outside the app's own
 * connection): the page's sync record (`inboxSync`) and how many of its customers have their labels there
 * (`customerLabels`).
 */
import type { Page } from '@playwright/test'

export interface InboxDeviceState {
  /** The walk over the page's conversations reached the end of the list. */
  done: boolean
  synced: number
  labelled: number
}

export function inboxDeviceState(page: Page, pageId: string): Promise<InboxDeviceState> {
  return page.evaluate(
    (pageId) =>
      new Promise<InboxDeviceState>((resolve) => {
        const none = { done: false, synced: 0, labelled: 0 }
        const req = indexedDB.open('pagecast')
        req.onerror = () => resolve(none)
        req.onsuccess = () => {
          const db = req.result
          const stores = ['inboxSync', 'customerLabels']
          if (!stores.every((s) => db.objectStoreNames.contains(s))) return resolve(none)
          const tx = db.transaction(stores)
          const sync = tx.objectStore('inboxSync').get(pageId)
          const labelled = tx
            .objectStore('customerLabels')
            .count(IDBKeyRange.bound(`${pageId}:`, `${pageId};`))
          tx.oncomplete = () => {
            const record = sync.result as { done?: boolean; synced?: number } | undefined
            resolve({ done: !!record?.done, synced: record?.synced ?? 0, labelled: labelled.result })
            db.close()
          }
          tx.onerror = () => resolve(none)
        }
      }),
    pageId,
  )
}
