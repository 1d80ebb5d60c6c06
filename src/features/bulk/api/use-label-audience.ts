/**
 * The page's labels for the wizard's step 1: the labels (read again from the network on open), each loaded
 * customer's labels (those not read lately are read once the audience has loaded) and the reading's progress.
 */
import { useEffect, useMemo, useState } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { createLabelsGraph, type PageLabel } from '../../../core/graph/labels.ts'
import {
  cachedPageLabels,
  labelsByCustomer,
  readCustomersLabels,
  refreshPageLabels,
} from '../../../shared/labels/store.ts'

export interface LabelAudience {
  labels: PageLabel[]
  labelsOf: Map<string, string[]> | undefined
  reading?: { done: number; total: number }
}

export function useLabelAudience(
  pageId: string,
  pageToken: string,
  graphUrl: string,
  graphVersion: string,
  customerIds: readonly string[] | undefined,
): LabelAudience {
  const graph = useMemo(
    () => createLabelsGraph({ baseUrl: graphUrl, version: graphVersion }),
    [graphUrl, graphVersion],
  )
  const [reading, setReading] = useState<{ done: number; total: number }>()
  useEffect(() => {
    void refreshPageLabels(graph, pageId, pageToken).catch(() => undefined)
  }, [graph, pageId, pageToken])
  const labels = useLiveQuery(() => cachedPageLabels(pageId), [pageId])
  const labelsOf = useLiveQuery(() => labelsByCustomer(pageId), [pageId])
  const hasLabels = (labels?.length ?? 0) > 0
  useEffect(() => {
    if (!customerIds || !hasLabels) return
    const ctrl = new AbortController()
    void readCustomersLabels(graph, pageId, pageToken, customerIds, {
      signal: ctrl.signal,
      onProgress: (done, total) => setReading({ done, total }),
    })
    return () => ctrl.abort()
  }, [graph, pageId, pageToken, customerIds, hasLabels])
  return { labels: labels ?? [], labelsOf, reading }
}
