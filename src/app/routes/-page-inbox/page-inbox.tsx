/**
 * /{pageId}: the page sidebar, the conversation column, and the chat or the bulk wizard. Features never import
 * each other, so this is where the inbox, the chat and the bulk wizard meet.
 */
import { lazy, Suspense, useCallback, useMemo } from 'react'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { ChatView } from '../../../features/chat/index.ts'
import {
  InboxColumn,
  OfflineIndicator,
  PageHeader,
  PageSidebar,
  setLastCustomerMessageAt,
  useConversationList,
  useOnline,
  usePageEntry,
} from '../../../features/inbox/index.ts'
import { uploadImage } from '../../../shared/api/index.ts'
import { useClientConfig } from '../../../shared/config/index.ts'
import type { CachedConversation } from '../../../shared/db/db.ts'
import { createGraphClient } from '../../../shared/graph/client.ts'
import { useSession } from '../../../shared/session/index.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { SIDE_BY_SIDE, useMediaQuery } from '../../../shared/ui/use-media-query.ts'

const BulkWizard = lazy(() =>
  import('../../../features/bulk/components/bulk-wizard.tsx').then((m) => ({ default: m.BulkWizard })),
)

const route = getRouteApi('/$pageId')

export function PageInbox({ pageId }: { pageId: string }) {
  const config = useClientConfig()
  const { subscription } = useSession()
  const search = route.useSearch()
  const navigate = useNavigate()
  const online = useOnline()
  const goHome = useCallback(() => void navigate({ to: '/' }), [navigate])
  const entry = usePageEntry(pageId, goHome)
  const graph = useMemo(
    () => createGraphClient({ baseUrl: config.graphUrl, version: config.graphVersion }),
    [config.graphUrl, config.graphVersion],
  )
  const list = useConversationList({
    pageId,
    graph,
    pageToken: entry.token,
    refreshToken: entry.refreshToken,
  })
  const windowOptions = useMemo(
    () => ({ policy: config.messagingPolicy, humanAgentEnabled: config.humanAgentEnabled }),
    [config.messagingPolicy, config.humanAgentEnabled],
  )

  const token = entry.token
  const pictureUrl = useCallback(
    (id: string) => (token && id ? graph.pictureUrl(id, token) : undefined),
    [graph, token],
  )
  const selected: CachedConversation | undefined = search.c
    ? list.rows.find((r) => r.id === search.c)
    : search.chat
      ? list.rows.find((r) => r.customerId === search.chat)
      : list.rows[0]

  const select = useCallback(
    (row: CachedConversation) =>
      void navigate({ to: '/$pageId', params: { pageId }, search: { c: row.id }, replace: true }),
    [navigate, pageId],
  )
  const toggleBulk = useCallback(
    () =>
      void navigate({
        to: '/$pageId',
        params: { pageId },
        search: (s) => ({ ...s, bulk: s.bulk ? undefined : 1 }),
        replace: true,
      }),
    [navigate, pageId],
  )
  const onCustomerMessageAt = useCallback(
    (conversationId: string, at: number | undefined) =>
      void setLastCustomerMessageAt(pageId, conversationId, at),
    [pageId],
  )
  const upload = useCallback(
    async (file: File) => (await uploadImage(file, subscription?.access_type ?? null)).url,
    [subscription?.access_type],
  )

  const page = entry.page ?? { id: pageId, name: '' }
  const chosen = !!search.c || !!search.chat || !!search.bulk
  // A phone shows the chat pane only once a conversation is chosen: until then the first conversation is
  // selected in the list, but its chat is neither drawn nor loaded behind the list.
  const sideBySide = useMediaQuery(SIDE_BY_SIDE)
  const chatShown = chosen || sideBySide
  const back = () => void navigate({ to: '/$pageId', params: { pageId }, search: {}, replace: true })
  return (
    <div data-testid="page-inbox" className="flex h-full min-h-0 flex-col">
      {!online || entry.phase === 'offline' ? <OfflineIndicator /> : null}
      <PageHeader page={page} />
      <div className="flex min-h-0 flex-1">
        <PageSidebar page={page} />
        {/* On a phone one pane shows at a time: the list, or the chat once a conversation is chosen. */}
        <div className={`min-h-0 w-full md:w-auto ${chosen ? 'hidden md:flex' : 'flex'}`}>
          <InboxColumn
            list={list}
            selectedId={selected?.id}
            bulkOpen={!!search.bulk}
            pictureUrl={pictureUrl}
            onSelect={select}
            onToggleBulk={toggleBulk}
          />
        </div>
        <div className={`min-h-0 flex-1 ${chosen ? 'flex' : 'hidden md:flex'}`}>
          {search.bulk && token ? (
            <Suspense fallback={<LoadingDots />}>
              <BulkWizard pageId={pageId} pageName={page.name} pageToken={token} onClose={toggleBulk} />
            </Suspense>
          ) : selected && chatShown ? (
            <ChatView
              key={selected.id}
              pageId={pageId}
              customer={{
                conversationId: selected.id,
                id: selected.customerId,
                name: selected.customerName,
                updatedAt: selected.updatedAt,
                lastCustomerMessageAt: selected.lastCustomerMessageAt,
              }}
              graph={graph}
              pageToken={token}
              withToken={entry.withToken}
              windowOptions={windowOptions}
              online={online}
              trial={subscription?.access_type === 'trial'}
              pictureUrl={pictureUrl(selected.customerId)}
              profileUrl={selected.link}
              uploadImage={upload}
              onCustomerMessageAt={onCustomerMessageAt}
              onBack={back}
            />
          ) : null}
        </div>
      </div>
    </div>
  )
}
