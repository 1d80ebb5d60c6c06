/**
 * The close (x) and the strip's dismiss as the cards use them: the job is deleted on the server and here, and
 * leaves the server's list the cards read at once (that list would otherwise show it again as another
 * device's job until its next read).
 */
import { useCallback } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { StoredMessage } from '../../../core/contracts/api.ts'
import { SERVER_JOBS_KEY } from '../../../shared/bulk/server-jobs.ts'
import { closeJob } from './job-controls.ts'

export function useCloseJob(): (id: string) => Promise<void> {
  const client = useQueryClient()
  return useCallback(
    async (id: string) => {
      await closeJob(id)
      client.setQueryData<StoredMessage[]>(SERVER_JOBS_KEY, (list) => list?.filter((m) => m.id !== id))
      void client.invalidateQueries({ queryKey: SERVER_JOBS_KEY })
    },
    [client],
  )
}
