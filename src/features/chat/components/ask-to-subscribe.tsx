/**
 * "Ask to subscribe": one opt-in request to the customer of this chat, shown when the page's marketing
 * messages are on. The network takes it only inside the 24-hour window and once per title per person per
 * week, so the sheet says why not before anything is sent: outside the window, already subscribed, or asked
 * with this title this week (and from when again). Sent, it is recorded for the weekly limit.
 */
import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { marketingQueryOptions } from '../../../shared/api/marketing.ts'
import { DEFAULT_OPTIN_TITLE } from '../../../core/contracts/marketing-core.ts'
import { openModal, useModalOpen } from '../../../shared/ui/modal-stack.ts'
import type { AskToSubscribeProps } from './ask-to-subscribe-props.ts'

export type { AskToSubscribeProps }

// The sheet loads when it is first opened: most chats never ask.
const AskSheet = lazy(() => import('./ask-to-subscribe-sheet.tsx').then((m) => ({ default: m.AskSheet })))

export function AskToSubscribe(props: AskToSubscribeProps) {
  const state = useQuery({ ...marketingQueryOptions(props.pageId), retry: false, enabled: props.entered })
  const open = useModalOpen('ask-to-subscribe')
  if (!state.data?.enabled) return null
  return (
    <>
      <button
        type="button"
        data-testid="ask-to-subscribe"
        // Still reachable when it cannot be used, so a tap shows why (a phone has no hover).
        aria-disabled={!props.inWindow}
        onClick={() => openModal('ask-to-subscribe')}
        className={`inline-flex min-h-11 items-center rounded-md px-2 text-sm ${props.inWindow ? 'text-brand-700 hover:bg-brand-50' : 'text-gray-400'}`}
      >
        <Trans>Ask to subscribe</Trans>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <AskSheet {...props} defaultTitle={state.data.optin_title_default || DEFAULT_OPTIN_TITLE} />
        </Suspense>
      ) : null}
    </>
  )
}
