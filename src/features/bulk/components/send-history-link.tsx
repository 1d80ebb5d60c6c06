/** The bulk area's way to a page's send history (the reports of its ended sends, dismissed or not). */
import { Trans } from '@lingui/react/macro'
import { openModal } from '../../../shared/ui/modal-stack.ts'

/** Which page's history the open modal shows (kept for the tab, so a reload with `?modal=` still knows it). */
export const HISTORY_PAGE = 'pagecast.send-history-page'

export function openSendHistory(pageId: string): void {
  sessionStorage.setItem(HISTORY_PAGE, pageId)
  openModal('send-history')
}

const LOOK =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-3 text-sm font-medium text-brand-700 hover:bg-slate-100'

export function SendHistoryLink({
  pageId,
  className = 'mt-2 w-full',
}: {
  pageId: string
  className?: string
}) {
  return (
    <button
      type="button"
      className={`${LOOK} ${className}`}
      onClick={() => openSendHistory(pageId)}
      data-testid="send-history-open"
    >
      <Trans>Send history</Trans>
    </button>
  )
}
