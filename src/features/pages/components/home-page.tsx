/** Home (/): search box and the grid of the user's pages (docs/product-rules.md#home). */
import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useDeferredValue, useMemo, useState } from 'react'
import type { PageStanding } from '../../../core/contracts/api.ts'
import { type LocalUnread, pageUnread } from '../../../shared/live/unread.ts'
import type { Account } from '../../../core/graph/types.ts'
import { drawnConnected, useSession } from '../../../shared/session/store.ts'
import { loadFuzzy, useFuzzyMatcher } from '../../../shared/ui/fuzzy-matcher.ts'
import { searchPages } from '../model/search.ts'
import { AddPageCard, PageCard } from './page-card.tsx'

export interface HomePageProps {
  /** What this device knows of each page's unread messages; with the accounts list's count, the page's one count. */
  unreadByPage?: Readonly<Record<string, LocalUnread>>
  /** The pages that cannot be used: banned, or the owner's access revoked. */
  standing?: Readonly<Record<string, PageStanding>>
  /** False while the cards wait for what changes their size (the standing): the heading is drawn alone. */
  cardsReady?: boolean
}

export function HomePage({ unreadByPage, standing, cardsReady = true }: HomePageProps = {}) {
  const { t } = useLingui()
  const session = useSession()
  const { accounts } = session
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query)
  const searching = deferred.trim() !== ''
  const fuzzy = useFuzzyMatcher(searching)
  // A session drawn from the saved snapshot has no page token: its cards are connected as they were saved, so
  // the grid keeps its order and shape when the sign-in's answer brings the tokens.
  const isConnected = useCallback((a: Account) => drawnConnected(session, a), [session])
  const shown = useMemo(
    () => searchPages(accounts, deferred, fuzzy, isConnected),
    [accounts, deferred, fuzzy, isConnected],
  )

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Your pages</Trans>
          </h1>
          <p className="text-sm text-slate-500">
            <Trans>Choose a page to read its conversations and send messages.</Trans>
          </p>
        </div>
        <label className="relative w-full sm:w-72">
          <span className="sr-only">{t`Search pages`}</span>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
            fill="currentColor"
          >
            <path d="M8.5 3a5.5 5.5 0 0 1 4.4 8.8l3.6 3.7a1 1 0 0 1-1.4 1.4l-3.7-3.6A5.5 5.5 0 1 1 8.5 3Zm0 2a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7Z" />
          </svg>
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            // The fuzzy matcher is fetched as soon as the search is about to be used.
            onFocus={() => void loadFuzzy().catch(() => undefined)}
            placeholder={t`Search pages`}
            className="min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 ps-9 pe-3 text-sm shadow-sm"
          />
        </label>
      </div>
      {cardsReady ? (
        <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="page-grid">
          {shown.map((a) => (
            <PageCard
              key={a.id}
              account={a}
              connected={isConnected(a)}
              unread={pageUnread(unreadByPage?.[a.id], a.unread_message_count)}
              standing={standing?.[a.id]}
            />
          ))}
          <AddPageCard />
        </div>
      ) : null}
      {shown.length === 0 && query && fuzzy ? (
        <p className="mt-4 text-sm text-slate-500">
          <Trans>No page matches your search.</Trans>
        </p>
      ) : null}
    </div>
  )
}
