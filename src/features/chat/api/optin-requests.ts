/**
 * The opt-in requests ("Ask to subscribe") sent to a chat's customer as the server recorded them, from any
 * device or bulk job: one query under the conversation's history key, `[...historyKey, 'optin-requests',
 * psid]`, so whatever reads the history again (a live message, a gap in the stream) reads them too. It runs
 * only while the page's marketing messages are on and the app is online; offline the last answer stays, with
 * the requests this tab sent.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { listOptinRequests, marketingQueryOptions } from '../../../shared/api/marketing.ts'
import { mergeOptInTitles, useOptInRequests } from '../model/optin-sent.ts'
import { historyKey } from './use-history.ts'

export const optinRequestsKey = (pageId: string, conversationId: string, psid: string) =>
  [...historyKey(pageId, conversationId), 'optin-requests', psid] as const

export function optinRequestsQueryOptions(pageId: string, conversationId: string, psid: string) {
  return queryOptions({
    queryKey: optinRequestsKey(pageId, conversationId, psid),
    queryFn: ({ signal }) => listOptinRequests(pageId, psid, signal),
  })
}

export interface OptInTitlesSource {
  pageId: string
  conversationId: string
  customerId: string
  online: boolean
}

/** The chat's opt-in request messages, message id -> title: the server's list with this tab's own sends. */
export function useOptInTitles({
  pageId,
  conversationId,
  customerId,
  online,
}: OptInTitlesSource): ReadonlyMap<string, string> {
  const inTab = useOptInRequests()
  const marketing = useQuery({ ...marketingQueryOptions(pageId), retry: false, enabled: online })
  const recorded = useQuery({
    ...optinRequestsQueryOptions(pageId, conversationId, customerId),
    enabled: online && !!customerId && marketing.data?.enabled === true,
  })
  return useMemo(() => mergeOptInTitles(recorded.data, inTab), [recorded.data, inTab])
}
