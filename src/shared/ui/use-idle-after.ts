import { startTransition, useEffect, useState } from 'react'
import { whenIdle } from './when-idle.ts'

/**
 * False until the browser's first idle moment after `ready` turned true (at most a second later): for the
 * parts of a screen that can follow its first paint.
 */
export function useIdleAfter(ready: boolean): boolean {
  const [after, setAfter] = useState(false)
  useEffect(() => {
    if (!ready || after) return
    return whenIdle(() => startTransition(() => setAfter(true)), 1_000, 50)
  }, [ready, after])
  return after
}
