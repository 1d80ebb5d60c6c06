/**
 * Whether this tab is in view, told to the server (`POST /api/v2/presence {tab, visible}`) on every change of
 * visibility and every PRESENCE_INTERVAL_MS while visible: the server pushes a notification to the phone only
 * when none of the owner's tabs is in view. A tab closing says it is gone, so a push is not held back for it.
 */
import { apiAnswer } from '../../../core/api/request.ts'
import { apiToken } from '../../../shared/api/session-cookie.ts'

/** The server counts a tab as visible for 90 s after its last call; one a minute keeps it counted. */
export const PRESENCE_INTERVAL_MS = 60_000

export type PresenceSend = (visible: boolean, closing: boolean) => Promise<unknown>

export function presenceSender(tabId: string): PresenceSend {
  return (visible, closing) =>
    apiAnswer(
      '/presence',
      { method: 'POST', body: { tab: tabId, visible } },
      {
        token: apiToken,
        // keepalive lets the last call outlive the closing page.
        fetch: (input, init) => fetch(input, { ...init, ...(closing ? { keepalive: true } : {}) }),
      },
    ).catch(() => undefined)
}

export interface PresenceOptions {
  send: PresenceSend
  interval?: number
  target?: Window
}

export function startPresence({
  send,
  interval = PRESENCE_INTERVAL_MS,
  target = window,
}: PresenceOptions): () => void {
  const doc = target.document
  let timer: ReturnType<typeof setInterval> | undefined
  const visible = () => doc.visibilityState === 'visible'
  const schedule = () => {
    if (timer !== undefined) clearInterval(timer)
    timer = visible() ? setInterval(() => void send(true, false), interval) : undefined
  }
  const change = () => {
    void send(visible(), false)
    schedule()
  }
  const leave = () => void send(false, true)
  doc.addEventListener('visibilitychange', change)
  target.addEventListener('pagehide', leave)
  change()
  return () => {
    doc.removeEventListener('visibilitychange', change)
    target.removeEventListener('pagehide', leave)
    if (timer !== undefined) clearInterval(timer)
  }
}
