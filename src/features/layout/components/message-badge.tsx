/**
 * The available-messages counter (docs/product-rules.md#unlimited-and-fair-use); hidden for unlimited
 * subscribers not blocked.
 */
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { SubscriptionState } from '../../../core/contracts/api.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { type BadgeTone, badgeTone, showsMessageBadge } from '../model/subscription-rules.ts'

const toneClass: Record<BadgeTone, string> = {
  primary: 'bg-brand-600 text-white',
  warning: 'bg-amber-400 text-amber-950',
  danger: 'bg-red-600 text-white',
}

export function MessageBadge({
  subscription,
  onClick,
}: {
  subscription: SubscriptionState
  onClick: () => void
}) {
  const { i18n } = useLingui()
  if (!showsMessageBadge(subscription)) return null
  const available = subscription.available_messages
  const tone = badgeTone(available)
  const count = formatNumber(available, i18n.locale)
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid="message-badge"
      data-tone={tone}
      aria-label={plural(available, {
        one: '# message available',
        other: '# messages available',
      })}
      className={`inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold tabular-nums ${toneClass[tone]}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
        <path d="M3 5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H9l-4 3v-3a2 2 0 0 1-2-2Z" />
      </svg>
      {count}
    </button>
  )
}
