/**
 * The available-message count, refreshed every 5 seconds while the wizard is open
 * (docs/product-rules.md#bulk-wizard).
 */
import { useEffect } from 'react'
import { getAvailableMessages } from '../../../shared/api'
import { AVAILABLE_POLL_MS } from '../../../core/constants/limits.ts'
import { sessionStore, setSubscription } from '../../../shared/session'

export function useAvailablePoll(): void {
  useEffect(() => {
    let stopped = false
    const poll = async () => {
      try {
        const available = await getAvailableMessages()
        const sub = sessionStore.getState().subscription
        if (!stopped && sub && sub.available_messages !== available)
          setSubscription({ ...sub, available_messages: available })
      } catch {
        // The API client reports failures; the next tick tries again.
      }
    }
    void poll()
    const timer = setInterval(() => void poll(), AVAILABLE_POLL_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [])
}
