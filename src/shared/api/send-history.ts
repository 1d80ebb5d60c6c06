/** A page's send history and each send's report (src/core/contracts/send-history.ts). */
import { infiniteQueryOptions } from '@tanstack/react-query'
import {
  historyList,
  type HistoryList,
  sendReport,
  type SendReport,
} from '../../core/contracts/send-history.ts'
import { API_BASE, api } from './client.ts'
import { apiToken } from './session-cookie.ts'

export async function getSendHistory(pageId: string, before?: string): Promise<HistoryList> {
  const q = before ? `?before=${encodeURIComponent(before)}` : ''
  return historyList.parse(await api(`/pages/${encodeURIComponent(pageId)}/send-history${q}`))
}

export async function getSendReport(id: string, after?: string): Promise<SendReport> {
  const q = after ? `?after=${encodeURIComponent(after)}` : ''
  return sendReport.parse(await api(`/messages/${encodeURIComponent(id)}/report${q}`))
}

/** Downloads the report's recipients as a CSV file (`send-<id>.csv`). */
export async function downloadReportCsv(id: string): Promise<void> {
  const token = apiToken()
  const res = await fetch(`${API_BASE}/messages/${encodeURIComponent(id)}/report.csv`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  if (!res.ok) throw new Error(`the report could not be downloaded (${res.status})`)
  const url = URL.createObjectURL(await res.blob())
  try {
    const a = document.createElement('a')
    a.href = url
    a.download = `send-${id}.csv`
    document.body.append(a)
    a.click()
    a.remove()
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }
}

/** The keys of the send history's reads. */
export const sendHistoryKeys = {
  list: (pageId: string) => ['send-history', pageId] as const,
  report: (id: string) => ['send-report', id] as const,
}

/** A page's ended sends, newest first, a page of them at a time. */
export function sendHistoryQueryOptions(pageId: string) {
  return infiniteQueryOptions({
    queryKey: sendHistoryKeys.list(pageId),
    queryFn: ({ pageParam }) => getSendHistory(pageId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  })
}

/** A send's report, its recipients a page at a time. */
export function sendReportQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: sendHistoryKeys.report(id),
    queryFn: ({ pageParam }) => getSendReport(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  })
}
