/** The bulk area's way to a page's send history (the reports of its ended sends, dismissed or not). */
import { Trans } from '@lingui/react/macro'
import { openModal } from '../../../shared/ui/modal-stack.ts'

/** Which page's history the open modal shows (kept for the tab, so a reload with `?modal=` still knows it). */
export const HISTORY_PAGE = 'pagecast.send-history-page'

export function openSendHistory(pageId: string): void {
  sessionStorage.setItem(HISTORY_PAGE, pageId)
  openModal('send-history')
}

export function SendHistoryLink({ pageId }: { pageId: string }) {
  return (
    <button
      type="button"
      className="mt-2 inline-flex min-h-11 w-full items-center justify-center rounded-md px-3 text-sm font-medium text-brand-700 hover:bg-slate-50"
      onClick={() => openSendHistory(pageId)}
      data-testid="send-history-open"
    >
      <Trans>Send history</Trans>
    </button>
  )
}
