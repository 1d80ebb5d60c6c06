/** The page's scheduled sends, with their time in the owner's language and zone, cancellable until they start. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { cancelScheduledMessage, listScheduledMessages } from '../../../shared/api'
import { buttonSecondary } from '../../../shared/ui'

export const SCHEDULED_KEY = ['bulk-scheduled'] as const

export function ScheduledList({ pageId }: { pageId?: string }) {
  const { i18n } = useLingui()
  const client = useQueryClient()
  const { data } = useQuery({
    queryKey: SCHEDULED_KEY,
    queryFn: listScheduledMessages,
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
            <span className="flex min-w-0 flex-col">
              <span className="font-medium text-slate-700">
                <Trans>Scheduled for {when}</Trans>
              </span>
              <span dir="auto" className="truncate text-slate-500">
                {m.message}
              </span>
            </span>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() =>
                void cancelScheduledMessage(m.id).finally(() =>
                  client.invalidateQueries({ queryKey: SCHEDULED_KEY }),
                )
              }
            >
              <Trans>Cancel</Trans>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
