/** The bulk screens' own reads: their keys and options (the server's jobs are named in src/shared/bulk/keys.ts). */
import { queryOptions } from '@tanstack/react-query'
import { listScheduledMessages } from '../../../shared/api'

/** The owner's scheduled sends, read by the progress cards, the list and the editor alike (one request). */
export const SCHEDULED_KEY = ['bulk-scheduled'] as const

export function scheduledQueryOptions() {
  return queryOptions({ queryKey: SCHEDULED_KEY, queryFn: listScheduledMessages })
}
