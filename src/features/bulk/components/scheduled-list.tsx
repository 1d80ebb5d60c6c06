/**
 * The page's scheduled sends, with their time in the owner's language and zone, editable and cancellable
 * until they start (cancelling asks first). A card fits a 360 px phone: the text is cut, the buttons wrap under it.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { buttonSecondary } from '../../../shared/ui'
import { confirmCancelScheduled } from './cancel-confirm.tsx'
import { scheduledQueryOptions } from '../api/queries.ts'
import { editScheduled } from './scheduled-edit.tsx'

export function ScheduledList({ pageId }: { pageId?: string }) {
  const { i18n } = useLingui()
  const { data } = useQuery({
    ...scheduledQueryOptions(),
    refetchInterval: 30_000,
  })
  const list = (data ?? []).filter((m) => !pageId || m.page_id === pageId)
  if (list.length === 0) return null
  return (
    <ul className="flex flex-col gap-2" data-testid="bulk-scheduled">
      {list.map((m) => {
        const when = new Intl.DateTimeFormat(i18n.locale, {
          dateStyle: 'medium',
          timeStyle: 'short',
          ...(m.time_zone ? { timeZone: m.time_zone } : {}),
        }).format(new Date(m.scheduled_at ?? m.created_at))
        return (
          <li
            key={m.id}
            className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm"
            data-testid="bulk-scheduled-card"
          >
            <span className="flex min-w-0 flex-1 basis-40 flex-col">
              <span className="font-medium text-slate-700">
                <Trans>Scheduled for {when}</Trans>
              </span>
              <span dir="auto" className="truncate text-slate-500">
                {m.message}
              </span>
            </span>
            <span className="flex shrink-0 gap-2">
              <button
                type="button"
                className={buttonSecondary}
                onClick={() => editScheduled(m.id)}
                data-testid="bulk-scheduled-edit"
              >
                <Trans>Edit</Trans>
              </button>
              <button
                type="button"
                className={buttonSecondary}
                onClick={() => confirmCancelScheduled(m.id)}
                data-testid="bulk-scheduled-cancel"
              >
                <Trans>Cancel send</Trans>
              </button>
            </span>
          </li>
        )
      })}
    </ul>
  )
}
