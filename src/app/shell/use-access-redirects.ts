/**
 * docs/product-rules.md#routes: without access go to /plans, with access leave /plans; after checkout
 * (`/?success=true|false`) tell the outcome and refresh the subscription before deciding.
 */
import { useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { userQueryOptions } from '../../shared/api/user.ts'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import { notify } from '../../shared/notifications/store.ts'
import { setSubscription } from '../../shared/session/store.ts'
import { announceSubscriptionChange, useSubscriptionSync } from '../../shared/session/subscription-sync.ts'

const withoutOutcome = (search: Record<string, unknown>): Record<string, unknown> => {
  const rest = { ...search }
  delete rest.success
  return rest
}

export function useAccessRedirects(subscription: SubscriptionState | undefined): void {
  const { t } = useLingui()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const location = useRouterState({ select: (s) => s.location })
  const search = location.search as Record<string, unknown>
  const outcome = search.success === undefined ? undefined : String(search.success) === 'true'
  const [refreshing, setRefreshing] = useState(false)
  const handled = useRef(false)
  useSubscriptionSync(subscription !== undefined)

  useEffect(() => {
    if (outcome === undefined || handled.current) return
    handled.current = true
    setRefreshing(true)
    if (outcome)
      notify({
        kind: 'success',
        title: t`Payment completed`,
        message: t`Thank you! Your purchase is active.`,
      })
    else notify({ kind: 'info', title: t`Checkout cancelled`, message: t`Nothing was charged.` })
    void queryClient
      .fetchQuery({ ...userQueryOptions(), staleTime: 0 })
      .then((sub) => {
        setSubscription(sub)
        // The tab the checkout started from (and any other) learns of the purchase without a reload.
        if (outcome) announceSubscriptionChange()
      })
      .catch(() => undefined)
      .finally(() => {
        setRefreshing(false)
        // Only the outcome leaves the address: a modal the owner opened meanwhile (`?modal=`) stays open.
        void navigate({ to: '/', search: withoutOutcome as never, replace: true })
      })
  }, [outcome, navigate, queryClient, t])

  useEffect(() => {
    if (!subscription || refreshing || outcome !== undefined) return
    if (!subscription.access && location.pathname !== '/plans') void navigate({ to: '/plans', replace: true })
    else if (subscription.access && location.pathname === '/plans') void navigate({ to: '/', replace: true })
  }, [subscription, refreshing, outcome, location.pathname, navigate])
}
