/**
 * The app's side of utility messages (docs/utility-messages.md): the page's templates and the network's
 * library as queries, the permission asked when first needed, and the owner's words for a template's state.
 * The templates query is read again when the status webhook says a review ended (the live stream).
 */
import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useClientConfig } from '../config/index.ts'
import { createUtilityClient, UTILITY_SCOPE, type UtilityClient } from '../../core/graph/utility.ts'
import { hasPermissions, requestExtraPermissions } from '../session/actions.ts'
import { libraryKey, templatesKey } from './keys.ts'

export type WithToken = <T>(call: (token: string) => Promise<T>) => Promise<T>

export { templatesKey }

export function useUtilityClient(): UtilityClient {
  const config = useClientConfig()
  return useMemo(
    () => createUtilityClient({ baseUrl: config.graphUrl, version: config.graphVersion }),
    [config.graphUrl, config.graphVersion],
  )
}

/** Whether the login granted `page_utility_messaging`. */
export const hasUtilityPermission = () => hasPermissions([UTILITY_SCOPE])

/** Asks the network for `page_utility_messaging` (from a click); answers whether it was granted. */
export async function askUtilityPermission(): Promise<boolean> {
  if (hasUtilityPermission()) return true
  return (await requestExtraPermissions([UTILITY_SCOPE])).granted
}

export function usePageTemplates(pageId: string, withToken: WithToken, enabled: boolean) {
  const client = useUtilityClient()
  return useQuery({
    queryKey: templatesKey(pageId),
    queryFn: () => withToken((token) => client.templates(pageId, token)),
    enabled,
    retry: false,
  })
}

export function useLibrary(search: string, language: string, withToken: WithToken, enabled: boolean) {
  const client = useUtilityClient()
  return useQuery({
    queryKey: libraryKey(search, language),
    queryFn: () => withToken((token) => client.library(token, { search: search.trim(), language })),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  })
}

/** A name for a library template's copy in the page's library: its name without the trailing number. */
export function cloneName(libraryName: string, taken: readonly string[]): string {
  const base = libraryName.replace(/_\d+$/, '')
  if (!taken.includes(base)) return base
  for (let i = 2; ; i++) if (!taken.includes(`${base}_${i}`)) return `${base}_${i}`
}

const REJECTIONS: Record<string, MessageDescriptor> = {
  INCORRECT_CATEGORY: msg`Facebook read this as a promotion: a utility message may not offer, sell or advertise anything.`,
  INVALID_FORMAT: msg`Facebook could not read the template's format: check its placeholders.`,
  ABUSIVE_CONTENT: msg`Facebook found content it does not allow in this template.`,
  SCAM: msg`Facebook found content it does not allow in this template.`,
}

/** The class of a rejection in the owner's language (the network's reason is shown beside it). */
export function rejectionText(reason: string | undefined | null): string {
  return i18n._(REJECTIONS[reason ?? ''] ?? msg`Facebook did not approve this template.`)
}
