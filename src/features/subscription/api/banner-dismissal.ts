/**
 * The branded-messages banner put away for the rest of the browser session (docs/product-rules.md#branded-messages):
 * a new session offers it again, since the allowance it warns about only goes down.
 */
import { useState } from 'react'

const KEY = 'pagecast-branded-banner-away'

function storedAway(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1'
  } catch {
    return false
  }
}

/** Whether the banner was put away in this session, and how to put it away. */
export function useBannerDismissal(): [away: boolean, putAway: () => void] {
  const [away, setAway] = useState(storedAway)
  const putAway = () => {
    try {
      sessionStorage.setItem(KEY, '1')
    } catch {
      // Without storage the banner stays away on this screen only.
    }
    setAway(true)
  }
  return [away, putAway]
}
