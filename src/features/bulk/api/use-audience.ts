/**
 * The wizard's audience: read from this device's synced conversations when a sync of the page reached the end
 * of its list, else loaded from the network on open (paced to its budget), reporting the count while it
 * loads. It can be cancelled; a loading a failure stopped says so and goes on from where it stopped.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { createGraphClient } from '../../../core/graph/client.ts'
import { loadRecipients, type BulkCustomer } from './load-recipients.ts'
import { syncedAudience } from './synced-audience.ts'

export interface Audience {
  customers: BulkCustomer[]
  loading: boolean
  /** When the last page arrived: the messaging window is judged at this time. */
  at: number
  cancel(): void
  /** A failure stopped the loading before the end of the list: `customers` are those loaded so far. */
  failed: boolean
  /** Goes on loading from where the failure stopped it. */
  resume(): void
}

interface Loaded {
  key: string
  customers: BulkCustomer[]
  loading: boolean
  at: number
  failed: boolean
  /** The network's cursor where a failure stopped the loading. */
  after?: string | undefined
}

export function useAudience(
  pageId: string,
  pageToken: string,
  graphUrl: string,
  graphVersion: string,
): Audience {
  const key = `${pageId}:${pageToken}`
  const [loaded, setLoaded] = useState<Loaded>({
    key: '',
    customers: [],
    loading: true,
    at: 0,
    failed: false,
  })
  const ctrl = useRef<AbortController | null>(null)
  const graph = useMemo(
    () => createGraphClient({ baseUrl: graphUrl, version: graphVersion }),
    [graphUrl, graphVersion],
  )

  /** Loads from the network from `from` (a failure's cursor; undefined: the head), after `known` customers. */
  const load = useCallback(
    (from: { after?: string | undefined; known: BulkCustomer[] } | undefined, signal: AbortSignal) => {
      const add = (page: BulkCustomer[]) =>
        setLoaded((prev) => ({
          key,
          customers: prev.key === key ? [...prev.customers, ...page] : page,
          loading: true,
          at: Date.now(),
          failed: false,
        }))
      const seen = new Set(from?.known.map((c) => c.recipientId))
      void loadRecipients(graph, pageId, pageToken, add, signal, { after: from?.after, seen }).then((end) =>
        setLoaded((prev) => {
          const base = prev.key === key ? prev : { key, customers: [], at: Date.now() }
          return end.complete || !end.failed
            ? { ...base, loading: false, failed: false }
            : { ...base, loading: false, failed: true, after: end.after }
        }),
      )
    },
    [graph, key, pageId, pageToken],
  )

  useEffect(() => {
    const controller = new AbortController()
    ctrl.current = controller
    void syncedAudience(pageId)
      .catch(() => undefined)
      .then((synced) => {
        if (controller.signal.aborted) return
        if (!synced) return load(undefined, controller.signal)
        setLoaded({ key, customers: synced, loading: false, at: Date.now(), failed: false })
      })
    return () => controller.abort()
  }, [key, load, pageId])

  const cancel = useCallback(() => ctrl.current?.abort(), [])
  const resume = useCallback(() => {
    if (loaded.key !== key || !loaded.failed) return
    const controller = new AbortController()
    ctrl.current = controller
    setLoaded((prev) => ({ ...prev, loading: true, failed: false }))
    load({ after: loaded.after, known: loaded.customers }, controller.signal)
  }, [key, load, loaded])
  const current = loaded.key === key
  return {
    customers: current ? loaded.customers : [],
    loading: current ? loaded.loading : true,
    at: loaded.at,
    cancel,
    failed: current && loaded.failed,
    resume,
  }
}
