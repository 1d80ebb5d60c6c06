/** The wizard's audience: loads on open, reports the count while loading, can be cancelled. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { createGraphClient } from '../../../core/graph/client.ts'
import { loadRecipients, type BulkCustomer } from './load-recipients.ts'

export interface Audience {
  customers: BulkCustomer[]
  loading: boolean
  /** When the last page arrived: the messaging window is judged at this time. */
  at: number
  cancel(): void
}

interface Loaded {
  key: string
  customers: BulkCustomer[]
  loading: boolean
  at: number
}

export function useAudience(
  pageId: string,
  pageToken: string,
  graphUrl: string,
  graphVersion: string,
): Audience {
  const key = `${pageId}:${pageToken}`
  const [loaded, setLoaded] = useState<Loaded>({ key: '', customers: [], loading: true, at: 0 })
  const ctrl = useRef<AbortController | null>(null)
  const graph = useMemo(
    () => createGraphClient({ baseUrl: graphUrl, version: graphVersion }),
    [graphUrl, graphVersion],
  )

  useEffect(() => {
    const controller = new AbortController()
    ctrl.current = controller
    const add = (page: BulkCustomer[]) =>
      setLoaded((prev) => ({
        key,
        customers: prev.key === key ? [...prev.customers, ...page] : page,
        loading: true,
        at: Date.now(),
      }))
    void loadRecipients(graph, pageId, pageToken, add, controller.signal).finally(() =>
      setLoaded((prev) =>
        prev.key === key
          ? { ...prev, loading: false }
          : { key, customers: [], loading: false, at: Date.now() },
      ),
    )
    return () => controller.abort()
  }, [graph, key, pageId, pageToken])

  const cancel = useCallback(() => ctrl.current?.abort(), [])
  const current = loaded.key === key
  return {
    customers: current ? loaded.customers : [],
    loading: current ? loaded.loading : true,
    at: loaded.at,
    cancel,
  }
}
