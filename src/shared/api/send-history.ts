/** A page's send history and each send's report (src/shared/contracts/send-history.ts). */
import { historyList, type HistoryList, sendReport, type SendReport } from '../contracts/send-history.ts'
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
