/** The pages of home that cannot be used (banned, or the owner's access revoked), asked once per list of pages. */
import { useQuery } from '@tanstack/react-query'
import { pageStanding, pageStandingKey } from '../../../shared/api/index.ts'
import type { PageStanding } from '../../../core/contracts/api.ts'
import { useSession } from '../../../shared/session/store.ts'

export function usePageStanding(): Readonly<Record<string, PageStanding>> | undefined {
  const { accounts, offline } = useSession()
  const ids = accounts.map((a) => a.id)
  const query = useQuery({
    queryKey: pageStandingKey(ids),
    queryFn: () => pageStanding(ids),
    enabled: ids.length > 0 && !offline,
    staleTime: 60_000,
    retry: false,
  })
  return query.data
}
