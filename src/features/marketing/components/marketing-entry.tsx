/**
 * Where a page owner finds the page's marketing messages: a button in the page's header (phone) and in its
 * sidebar (desktop), saying whether they are on. It opens `?modal=marketing`.
 */
import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { marketingQueryOptions } from '../../../shared/api/marketing.ts'
import { openModal } from '../../../shared/ui/modal-stack.ts'

export function MarketingEntry({
  pageId,
  variant,
  ready,
}: {
  pageId: string
  variant: 'header' | 'sidebar'
  /** The page is entered (registered with the API): its marketing state may be read. */
  ready: boolean
}) {
  const state = useQuery({ ...marketingQueryOptions(pageId), retry: false, enabled: ready })
  const on = state.data?.enabled === true
  const badge = on ? (
    <span className="rounded-full bg-emerald-50 px-2 text-xs font-medium text-emerald-900">
      <Trans>On</Trans>
    </span>
  ) : null
  return (
    <button
      type="button"
      data-testid={`marketing-entry-${variant}`}
      onClick={() => openModal('marketing')}
      className={
        variant === 'header'
          ? 'flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800'
          : 'flex min-h-11 items-center justify-between gap-2 rounded-md px-3 py-2 text-start text-sm font-medium text-slate-700 hover:bg-slate-100'
      }
    >
      {variant === 'header' ? (
        // A phone's header line keeps its room for the page's name: the label shows from `sm` up.
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 shrink-0 rtl:-scale-x-100"
          fill="currentColor"
        >
          <path d="M15 3.5a1 1 0 0 0-1.4-.9L7.8 5.5H4.5A1.5 1.5 0 0 0 3 7v4a1.5 1.5 0 0 0 1.5 1.5h.6l1 3.6a1 1 0 0 0 1 .7h1.2a.7.7 0 0 0 .7-.9l-.9-3.4 5.5 2.9a1 1 0 0 0 1.4-.9v-11Zm1.5 4a.75.75 0 0 1 .75.75v1.5a.75.75 0 0 1-1.5 0v-1.5a.75.75 0 0 1 .75-.75Z" />
        </svg>
      ) : null}
      <span className={variant === 'header' ? 'sr-only sm:not-sr-only' : ''}>
        <Trans>Marketing messages</Trans>
      </span>
      {badge}
    </button>
  )
}
