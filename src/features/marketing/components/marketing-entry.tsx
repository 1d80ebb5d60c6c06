/**
 * Where a page owner finds the page's marketing messages: a button in the page's header (phone) and in its
 * sidebar (desktop), saying whether they are on. It opens `?modal=marketing`.
 */
import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { marketingQueryOptions } from '../../../shared/api/marketing.ts'
import { openModal } from '../../../shared/ui/modal-stack.ts'

export function MarketingEntry({ pageId, variant }: { pageId: string; variant: 'header' | 'sidebar' }) {
  const state = useQuery({ ...marketingQueryOptions(pageId), retry: false })
  const on = state.data?.enabled === true
  const badge = on ? (
    <span className="rounded-full bg-emerald-100 px-2 text-xs font-medium text-emerald-800">
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
          ? 'flex shrink-0 items-center gap-1 rounded-md border border-gray-300 bg-white px-2 py-1 text-xs font-medium text-gray-800 short:py-0.5'
          : 'flex items-center justify-between gap-2 rounded-md px-3 py-2 text-start text-sm font-medium text-gray-700 hover:bg-gray-100'
      }
    >
      <Trans>Marketing messages</Trans>
      {badge}
    </button>
  )
}
