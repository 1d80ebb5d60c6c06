/**
 * The signed-in shell's live connection: one stream and one presence loop for this tab, for as long as the
 * owner is signed in. Renders only a hidden status (for tests and the integration's own checks).
 */
import { useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { notify } from '../../../shared/notifications/index.ts'
import { isolate } from '../../../core/format/text.ts'
import { refreshAvailableSoon } from '../../../shared/session/available.ts'
import { useSession } from '../../../shared/session/store.ts'
import { loadBulkReceipts } from '../model/bulk-record.ts'
import { dispatchLiveEvent, type LiveDeps, type LiveQueryKeys } from '../model/dispatch.ts'
import { presenceSender, startPresence } from '../stream/presence.ts'
import { startLiveStream, type StreamStatus } from '../stream/stream-client.ts'

export interface LiveConnectionProps {
  /** The query keys of the list, histories and unread counts (see LiveQueryKeys). */
  keys?: LiveQueryKeys
  /** The inbox's mark-as-read call for a message read in an open chat. */
  markSeen?: LiveDeps['markSeen']
  /**
   * Whether a conversation's chat is open and visible (default: the chats registered in
   * src/shared/live/changes.ts). An inbox that marks the shown conversation read itself when its unread
   * count rises passes `() => false`, so the count rises and its own mark-as-read runs.
   */
  inView?: LiveDeps['inView']
}

export function LiveConnection({ keys, markSeen, inView }: LiveConnectionProps) {
  const queryClient = useQueryClient()
  const { t } = useLingui()
  const { accounts } = useSession()
  const [status, setStatus] = useState<StreamStatus>('connecting')
  const deps = useRef<LiveDeps>({})
  const subscriptionFailed = (pageId: string) => {
    const name = isolate(accounts.find((a) => a.id === pageId)?.name ?? pageId)
    notify({
      kind: 'warning',
      title: t`Live updates are off for ${name}`,
      message: t`Facebook did not turn on live updates for this page: new messages show when you reload the inbox.`,
      persistent: true,
    })
  }
  const pageAccessLost = (pageId: string) => {
    const name = accounts.find((a) => a.id === pageId)?.name ?? pageId
    notify({
      kind: 'warning',
      title: t`You no longer manage ${name}`,
      message: t`Facebook took away your role on this page. Open it again from your pages list once it is back.`,
      persistent: true,
    })
  }
  useEffect(() => {
    deps.current = {
      queryClient,
      keys,
      markSeen,
      onSubscriptionFailed: subscriptionFailed,
      onPageAccessLost: pageAccessLost,
      onAllowanceSpent: refreshAvailableSoon,
      ...(inView ? { inView } : {}),
    }
  })

  useEffect(() => {
    const tabId = crypto.randomUUID()
    const readRecords = () => void loadBulkReceipts().catch(() => undefined)
    let opened = false
    const stream = startLiveStream({
      tabId,
      onEvent: async (event) => {
        await dispatchLiveEvent(event, deps.current)
        if (event.type === 'refetch') readRecords()
      },
      onStatus: (status) => {
        setStatus(status)
        if (status !== 'open') return
        if (!opened) {
          opened = true
          readRecords()
          return
        }
        // Back after a cut: the jobs' list is read again once (their progress is otherwise only followed live).
        const serverJobs = deps.current.keys?.serverJobs
        if (serverJobs) void deps.current.queryClient?.invalidateQueries({ queryKey: serverJobs })
      },
    })
    const stopPresence = startPresence({ send: presenceSender(tabId) })
    return () => {
      stream.stop()
      stopPresence()
    }
  }, [])

  return <span hidden data-testid="live-status" data-status={status} />
}
