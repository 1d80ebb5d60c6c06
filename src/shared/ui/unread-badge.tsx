/** A count of unread messages: the number for the eye, a sentence for screen readers. */
import { Plural } from '@lingui/react/macro'
import { formatNumber } from '../../core/format/numbers.ts'

export function UnreadBadge({ count, testId }: { count: number; testId: string }) {
  return (
    <span
      data-testid={testId}
      data-count={count}
      className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
    >
      <span aria-hidden="true">{formatNumber(count)}</span>
      <span className="sr-only">
        <Plural value={count} one="# unread message" other="# unread messages" />
      </span>
    </span>
  )
}
