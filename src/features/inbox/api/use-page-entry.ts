/**
 * Entering a page (docs/product-rules.md#page-entry) and keeping its token: in memory only, refreshed through
 * the accounts list when the network answers 190. Offline (or when the session could not be restored offline)
 * the page is shown from the cache without a token.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { extendPageToken, registerPage } from '../../../shared/api/index.ts'
import { refreshedPageToken, sessionStore, useSession } from '../../../shared/session/index.ts'
import { enterPage } from '../model/page-entry.ts'
import { recallPage, rememberPage, summaryOf } from '../model/page-cache.ts'
import type { PageSummary } from '../components/page-sidebar.tsx'
import { withFreshToken } from '../../../core/graph/fresh-token.ts'
import { useOnline } from '../../../shared/network/use-online.ts'
import type { PageWebhooks } from '../../../core/contracts/events.ts'

export type EntryPhase = 'entering' | 'ready' | 'offline'

export interface PageEntryState {
  phase: EntryPhase
  page?: PageSummary
  token?: string
  refreshToken: () => Promise<string>
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  /** Whether the page's live updates work, as the server said when the page was entered. */
  liveUpdates?: PageWebhooks
}

export function usePageEntry(pageId: string, onExit: () => void): PageEntryState {
  const session = useSession()
  const online = useOnline()
  const [result, setResult] = useState<EntryPhase>('entering')
  const [page, setPage] = useState<PageSummary>()
  const [token, setToken] = useState<string>()
  const [liveUpdates, setLiveUpdates] = useState<PageWebhooks>()
  const tokenRef = useRef<string | undefined>(undefined)
  /** The permissions the session had granted when the token was read (a token never gains later grants). */
  const grantsOfToken = useRef('')
  const exit = useRef(onExit)
  useEffect(() => {
    exit.current = onExit
  }, [onExit])

  useEffect(() => {
    let live = true
    void recallPage(pageId).then((saved) => live && saved && setPage((p) => p ?? saved))
    return () => {
      live = false
    }
  }, [pageId])

  const hasAccounts = session.accounts.length > 0
  const accessType = session.subscription?.access_type
  // After an offline start the accounts are the saved ones, without tokens, until the session is checked
  // again: entering then would find the page "absent" and leave it for home. The page waits (read from the
  // cache) and is entered with fresh tokens once the session is back.
  const canEnter = online && !session.offline && (session.status === 'logged_in' || hasAccounts)
  useEffect(() => {
    if (tokenRef.current || !canEnter) return
    let live = true
    void enterPage(pageId, { accounts: session.accounts, accessType, registerPage, extendPageToken }).then(
      async (entry) => {
        if (!live) return
        if (entry.kind === 'offline') return setResult('offline')
        // A refusal was already said by the API client, in the user's language (a used trial with its buy button).
        if (entry.kind !== 'ready') return exit.current()
        grantsOfToken.current = grantsKey(sessionStore.getState().grantedScopes)
        tokenRef.current = entry.token
        setToken(entry.token)
        setPage(summaryOf(entry.account))
        setLiveUpdates(entry.webhooks)
        setResult('ready')
        await rememberPage(entry.account).catch(() => undefined)
      },
    )
    return () => {
      live = false
    }
    // The accounts list is read once per entry; a refresh for a new token must not re-enter the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageId, canEnter, accessType])

  const refreshToken = useCallback(async () => {
    // Shared with the bulk sender: one refresh at a time, backed off while the page has no token.
    const grants = grantsKey(sessionStore.getState().grantedScopes)
    const fresh = await refreshedPageToken(pageId, 'inbox')
    if (!fresh) throw new Error('The page is no longer connected')
    grantsOfToken.current = grants
    tokenRef.current = fresh
    setToken(fresh)
    return fresh
  }, [pageId])

  // Permissions granted after the token was read (marketing turned on): the page's token as the session now
  // lists it carries them, so it replaces the one in use (a campaign would be refused with the old one).
  const grants = grantsKey(session.grantedScopes)
  useEffect(() => {
    if (!tokenRef.current || grantsOfToken.current === grants) return
    const listed = session.accounts.find((a) => a.id === pageId)?.access_token
    if (!listed) return
    grantsOfToken.current = grants
    void extendPageToken(listed, pageId)
      .catch(() => listed)
      .then((fresh) => {
        // Only while the token read with these grants is still the newest.
        if (grantsOfToken.current !== grants) return
        tokenRef.current = fresh
        setToken(fresh)
      })
  }, [grants, session.accounts, pageId])

  const withToken = useCallback(
    <T>(call: (t: string) => Promise<T>): Promise<T> => {
      const current = tokenRef.current
      if (!current) return Promise.reject(Object.assign(new Error('No page token'), { kind: 'network' }))
      return withFreshToken(current, refreshToken, call)
    },
    [refreshToken],
  )

  // A saved session drawn while its sign-in is checked is not offline: the page is entered once it answers.
  const waiting: EntryPhase = online && session.restoring ? 'entering' : 'offline'
  const phase: EntryPhase = token ? 'ready' : canEnter ? result : waiting
  return { phase, page, token, refreshToken, withToken, ...(liveUpdates ? { liveUpdates } : {}) }
}

const grantsKey = (scopes: readonly string[] | undefined) => [...(scopes ?? [])].sort().join(',')
