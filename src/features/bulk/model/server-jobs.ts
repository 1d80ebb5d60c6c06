/**
 * The cards' list: the jobs this device holds (its database is their cache and journal) and every other job
 * of the owner as the server records them, so every device shows the same jobs whoever sends them. The
 * server's record is the truth for what it knows: a card never shows fewer sent or rejected than it, nor an
 * empty page name when it has one. Pure.
 */
import type { StoredMessage } from '../../../core/contracts/api.ts'
import type { CardJob } from './card.ts'

/** A job of the server's list as a card of a job this device does not hold; undefined when it has none. */
export function remoteCard(m: StoredMessage, pageName: string | undefined): CardJob | undefined {
  if (m.state === 'scheduled' || m.state === 'cancelled') return undefined
  const server = m.sender === 'server'
  return {
    id: m.id,
    pageId: m.page_id,
    pageName: m.page_name ?? pageName ?? '',
    text: m.message,
    state:
      m.state === 'finished'
        ? 'finished'
        : m.state === 'stopped'
          ? 'stopped'
          : server
            ? 'on_server'
            : 'running',
    ...(m.stop_reason && m.state === 'stopped' ? { stopReason: m.stop_reason } : {}),
    createdAt: Date.parse(m.created_at) || 0,
    kind: m.kind,
    sent: m.ok_count,
    rejected: m.ng_count,
    skipped: m.skipped_count,
    total: m.total_messages,
    ...(m.delivered_count > 0 || m.read_count > 0
      ? { delivered: m.delivered_count, read: m.read_count }
      : {}),
    ...(m.marketing
      ? {
          marketing: {
            sent: m.marketing.sent,
            spendMinor: m.marketing.spend_minor,
            budgetMinor: m.marketing.budget_minor,
            currency: m.marketing.currency,
          },
        }
      : {}),
    remote: server ? 'server' : 'device',
  }
}

/**
 * A job this device keeps paused that the server ended (it finished there, or was stopped or cancelled from
 * another device): the server's end shows, never "Paused" with a Resume that has nothing left to do. Any other
 * state of this device's job is newer than the list (a Resume here moves it on before the list is read again).
 */
function endedOnServer(j: CardJob, m: StoredMessage): CardJob {
  if (m.state !== 'finished' && m.state !== 'stopped') return j
  if (j.state !== 'paused') return j
  const { stopReason: _local, ...rest } = j
  return {
    ...rest,
    state: m.state,
    ...(m.state === 'stopped' && m.stop_reason ? { stopReason: m.stop_reason } : {}),
  }
}

/** This device's cards with what the server knows beside them, then the jobs only the server has; newest first. */
export function withServerJobs(
  local: readonly CardJob[],
  server: readonly StoredMessage[] | undefined,
  pageNames: ReadonlyMap<string, string>,
): CardJob[] {
  const byId = new Map((server ?? []).map((m) => [m.id, m]))
  const held = new Set(local.map((j) => j.id))
  const mine = local.map((j): CardJob => {
    const m = byId.get(j.id)
    const pageName = j.pageName || m?.page_name || (j.pageId ? pageNames.get(j.pageId) : undefined) || ''
    if (!m) return { ...j, pageName }
    return {
      ...endedOnServer(j, m),
      pageId: j.pageId ?? m.page_id,
      pageName,
      sent: Math.max(j.sent, m.ok_count),
      rejected: Math.max(j.rejected, m.ng_count),
      ...(j.delivered !== undefined || m.delivered_count > 0
        ? {
            delivered: Math.max(j.delivered ?? 0, m.delivered_count),
            read: Math.max(j.read ?? 0, m.read_count),
          }
        : {}),
    }
  })
  const others = (server ?? [])
    .filter((m) => !held.has(m.id))
    .map((m) => remoteCard(m, pageNames.get(m.page_id)))
    .filter((c): c is CardJob => c !== undefined)
  return [...mine, ...others].sort((a, b) => b.createdAt - a.createdAt)
}

/** The cards of one page (the inbox of that page shows only its own jobs); every job without a page. */
export function ofPage(list: readonly CardJob[], pageId: string | undefined): CardJob[] {
  return pageId ? list.filter((j) => !j.pageId || j.pageId === pageId) : [...list]
}
