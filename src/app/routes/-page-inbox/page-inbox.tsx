/**
 * /{pageId}: the page sidebar, the conversation column, and the chat or the bulk wizard. Features never import
 * each other, so this is where the inbox, the chat and the bulk wizard meet.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react'
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router'
import { useLiveQuery } from 'dexie-react-hooks'
import { ChatView } from '../../../features/chat/index.ts'
import { MarketingEntry } from '../../../features/marketing/index.ts'
import { TemplatesEntry } from '../../../features/utility/index.ts'
import {
  CustomerLabels,
  LabelFilter,
  SelectionBar,
  useLabelsByCustomer,
  usePageLabels,
} from '../../../features/labels/index.ts'
import {
  InboxColumn,
  type InboxRow,
  type ListFilter,
  type ListSort,
  LiveUpdatesNotice,
  OfflineIndicator,
  PageHeader,
  PageSidebar,
  filterSearch,
  parseFilter,
  parseSort,
  setLastCustomerMessageAt,
  toInboxRows,
  useConversationList,
  useConversationStates,
  useMarkSeen,
  useOnline,
  usePageEntry,
  usePagesUnread,
} from '../../../features/inbox/index.ts'
import { uploadImage } from '../../../shared/api/index.ts'
import { useClientConfig } from '../../../shared/config/index.ts'
import { type CachedConversation, db } from '../../../device/db/db.ts'
import { createGraphClient } from '../../../core/graph/client.ts'
import { createLabelsGraph } from '../../../core/graph/labels.ts'
import { pageUnread } from '../../../shared/live/unread.ts'
import { useReplying } from '../../../shared/live/conversation-states.ts'
import { useSession } from '../../../shared/session/index.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { SIDE_BY_SIDE, useMediaQuery } from '../../../shared/ui/use-media-query.ts'
import { openedHere } from '../../shell/overlay-history.ts'

const BulkWizard = lazy(() =>
  import('../../../features/bulk/components/bulk-wizard.tsx').then((m) => ({ default: m.BulkWizard })),
)

const route = getRouteApi('/$pageId')

export function PageInbox({ pageId }: { pageId: string }) {
  const config = useClientConfig()
  const { subscription, accounts } = useSession()
  const search = route.useSearch()
  const navigate = useNavigate()
  const router = useRouter()
  const online = useOnline()
  // A refused or absent page is left for home in its place: Back must not lead into the refusal again.
  const goHome = useCallback(() => void navigate({ to: '/', replace: true }), [navigate])
  const entry = usePageEntry(pageId, goHome)
  // Offline as the device says, or as the page's entry found it (the server out of reach while the device
  // believes it is online): the page's line and the chat's reply box say the same.
  const offline = !online || entry.phase === 'offline'
  const graph = useMemo(
    () => createGraphClient({ baseUrl: config.graphUrl, version: config.graphVersion }),
    [config.graphUrl, config.graphVersion],
  )
  const labelsGraph = useMemo(
    () => createLabelsGraph({ baseUrl: config.graphUrl, version: config.graphVersion }),
    [config.graphUrl, config.graphVersion],
  )
  const list = useConversationList({
    pageId,
    graph,
    pageToken: entry.token,
    refreshToken: entry.refreshToken,
  })
  // Who is waiting for an answer: the server's states joined to every cached conversation (offline too).
  const waiting = useConversationStates(pageId, entry.phase === 'ready')
  const rows = useMemo(() => toInboxRows(list.rows, waiting.states), [list.rows, waiting.states])
  const listFilter = parseFilter(search)
  const sort = parseSort(search)
  // The filter and the order are in the address: opening a chat and coming Back returns to them.
  const setFilter = useCallback(
    (f: ListFilter) =>
      void navigate({
        to: '/$pageId',
        params: { pageId },
        search: (s) => ({ ...s, filter: filterSearch(f).filter }),
        replace: true,
      }),
    [navigate, pageId],
  )
  const setSort = useCallback(
    (next: ListSort) =>
      void navigate({
        to: '/$pageId',
        params: { pageId },
        search: (s) => ({ ...s, sort: next === 'window' ? 'window' : undefined }),
        replace: true,
      }),
    [navigate, pageId],
  )
  // The same function while the page is the same: the list is not drawn again for a new one.
  const { markDone: markCustomerDone } = waiting
  const markDone = useCallback((row: InboxRow) => void markCustomerDone(row.customerId), [markCustomerDone])
  const windowOptions = useMemo(
    () => ({ policy: config.messagingPolicy, humanAgentEnabled: config.humanAgentEnabled }),
    [config.messagingPolicy, config.humanAgentEnabled],
  )

  const token = entry.token
  const pictureUrl = useCallback(
    (id: string) => (token && id ? graph.pictureUrl(id, token) : undefined),
    [graph, token],
  )
  // Without a chosen conversation the first row's chat is shown, and it is pinned as soon as it shows: once a
  // live message moves another conversation to the top (this tab's stream, or another tab writing the shared
  // local database first), the chat shown stays the one the owner was looking at.
  const [pinned, setPinned] = useState<{ pageId: string; id: string }>()
  const pinnedId = pinned?.pageId === pageId ? pinned.id : undefined
  // A chat's address opened cold (a link, a bookmark) may name a conversation the list has not reached yet:
  // the cache may know it; otherwise the list shows once it has loaded, never an empty pane.
  const listed = search.c
    ? list.rows.find((r) => r.id === search.c)
    : search.chat
      ? list.rows.find((r) => r.customerId === search.chat)
      : (list.rows.find((r) => r.id === pinnedId) ?? list.rows[0])
  // A notification names the customer (`chat`), a link the conversation (`c`): either may be only in the cache.
  // Asked only for a conversation the list does not have: opening a listed one starts no query.
  const wantedC = listed ? undefined : search.c
  const wantedChat = listed ? undefined : search.chat
  const cached = useLiveQuery(() => {
    if (wantedC) return db.conversations.get(`${pageId}:${wantedC}`)
    if (wantedChat) return db.conversations.where('[pageId+customerId]').equals([pageId, wantedChat]).first()
    return undefined
  }, [pageId, wantedC, wantedChat])
  const selected: CachedConversation | undefined = listed ?? cached
  const chatMissing = (!!search.c || !!search.chat) && !selected && !list.loading && !list.initialising

  // Opening a chat from the list pushes a history entry, so Back returns to the list (then home). Another
  // conversation picked while one is open (side by side on a wide screen) replaces it: Back still goes to
  // the list, not through every conversation looked at. The address is read at the click, so the function
  // stays the same as chats open and close: the list's rows are not drawn again for a new one.
  const select = useCallback(
    (row: CachedConversation) => {
      const now = router.state.location.search
      const overSomething = !!now.c || !!now.bulk
      void navigate({
        to: '/$pageId',
        params: { pageId },
        // The list's filters stay: Back from the chat returns to the same list.
        search: (s) => ({
          filter: s.filter,
          sort: s.sort,
          c: row.id,
          ...(s.label ? { label: s.label } : {}),
        }),
        replace: overSomething,
        // A chat that takes the place of the wizard or of another chat stands over the same entry below.
        state: (s) => ({ opened: !overSomething || s.opened ? 'chat' : undefined }),
      })
    },
    [navigate, pageId, router],
  )
  // The wizard is opened over the list or a chat with an entry of its own; closing it is a step back.
  const toggleBulk = useCallback(() => {
    if (search.bulk && openedHere(router, 'bulk')) return router.history.back()
    void navigate({
      to: '/$pageId',
      params: { pageId },
      search: (s) => ({ ...s, bulk: s.bulk ? undefined : 1 }),
      replace: !!search.bulk,
      state: (s) => (search.bulk ? s : { opened: 'bulk' }),
    })
  }, [navigate, pageId, router, search.bulk])
  const onCustomerMessageAt = useCallback(
    (conversationId: string, at: number | undefined) =>
      void setLastCustomerMessageAt(pageId, conversationId, at),
    [pageId],
  )
  const upload = useCallback(
    async (file: File, onProgress?: (sent: number, total: number) => void) =>
      (await uploadImage(file, subscription?.access_type ?? null, onProgress)).url,
    [subscription?.access_type],
  )

  const page = entry.page ?? { id: pageId, name: '' }
  // The page's one count, from the same read as its home card.
  const localUnread = usePagesUnread()?.[pageId]
  const unread = pageUnread(localUnread, accounts.find((a) => a.id === pageId)?.unread_message_count)
  const chosen = ((!!search.c || !!search.chat) && !chatMissing) || !!search.bulk
  // A phone shows the chat pane only once a conversation is chosen: until then the first conversation is
  // selected in the list, but its chat is neither drawn nor loaded behind the list.
  const sideBySide = useMediaQuery(SIDE_BY_SIDE)
  const chatShown = chosen || sideBySide
  // The chat shown by default is pinned; a chosen one lets go of the pin (Back to the list shows the top one).
  const chosenConversation = !!search.c || !!search.chat
  const shownByDefault = !chosenConversation && !search.bulk && chatShown ? listed?.id : undefined
  // (State adjusted while rendering: the pin holds before the list's next order is drawn.)
  if (chosenConversation && pinned) setPinned(undefined)
  else if (shownByDefault && shownByDefault !== pinnedId) setPinned({ pageId, id: shownByDefault })
  // The conversation whose chat is on screen is read (cleared here, mark_seen on the network).
  useMarkSeen({
    pageId,
    graph,
    withToken: entry.withToken,
    conversation: selected && chatShown && !search.bulk ? selected : undefined,
    ready: !!token,
  })
  // The page's labels: a filter per label on the list (in the address), rows selected and labelled.
  const pageLabels = usePageLabels(pageId, labelsGraph, entry.withToken, !!token)
  const activeLabel = search.label
  // Every customer's labels are watched here only while a label filters the list: labels stored as the
  // background read goes on redraw the filter's chips alone, not the inbox.
  const labelsOf = useLabelsByCustomer(activeLabel ? pageId : undefined)
  const rowFilter = useMemo(
    () =>
      activeLabel
        ? (row: CachedConversation) => labelsOf?.get(row.customerId)?.includes(activeLabel) ?? false
        : undefined,
    [activeLabel, labelsOf],
  )
  const customerIds = useMemo(() => list.rows.map((r) => r.customerId), [list.rows])
  const [picked, setPicked] = useState<ReadonlySet<string>>()
  const filterByLabel = useCallback(
    (label: string | undefined) =>
      void navigate({
        to: '/$pageId',
        params: { pageId },
        search: (s) => ({ ...s, label }),
        replace: true,
      }),
    [navigate, pageId],
  )
  const pick = useCallback(
    (row: CachedConversation) =>
      setPicked((prev) => {
        const next = new Set(prev)
        if (next.has(row.id)) next.delete(row.id)
        else next.add(row.id)
        return next
      }),
    [],
  )
  const pickedCustomers = useMemo(
    () => (picked ? list.rows.filter((r) => picked.has(r.id)).map((r) => r.customerId) : []),
    [picked, list.rows],
  )
  const back = () => {
    if (openedHere(router, 'chat')) return router.history.back()
    void navigate({
      to: '/$pageId',
      params: { pageId },
      search: (s) => ({ filter: s.filter, sort: s.sort }),
      replace: true,
    })
  }
  const selectedRow = selected ? rows.find((r) => r.id === selected.id) : undefined
  const selectedState = selected ? waiting.states?.get(selected.customerId) : undefined
  const chatOpen = !!selected && chatShown && !search.bulk
  const { markSeen } = waiting
  // A person opened the chat: its unread count kept on the server is cleared for everyone.
  const openedCustomer = chatOpen ? selected.customerId : undefined
  const stateUnread = selectedState?.unread ?? 0
  useEffect(() => {
    if (openedCustomer && stateUnread > 0) markSeen(openedCustomer)
  }, [openedCustomer, stateUnread, markSeen])
  const replyingHere = useReplying(pageId, selected?.customerId ?? '')
  return (
    <div data-testid="page-inbox" className="flex h-full min-h-0 flex-col">
      {offline ? <OfflineIndicator /> : null}
      {entry.liveUpdates?.ok === false ? <LiveUpdatesNotice /> : null}
      <PageHeader
        page={page}
        unread={unread}
        paneOpen={chosen}
        action={<MarketingEntry pageId={pageId} variant="header" ready={entry.phase === 'ready'} />}
      />
      <div className="flex min-h-0 flex-1">
        <PageSidebar
          page={page}
          unread={unread}
          extra={
            <>
              <MarketingEntry pageId={pageId} variant="sidebar" ready={entry.phase === 'ready'} />
              <TemplatesEntry pageId={pageId} withToken={entry.withToken} ready={entry.phase === 'ready'} />
            </>
          }
        />
        {/* On a phone one pane shows at a time: the list, or the chat once a conversation is chosen. */}
        <div className={`min-h-0 w-full md:w-auto ${chosen ? 'hidden md:flex' : 'flex'}`}>
          <InboxColumn
            list={list}
            rows={rows}
            filter={listFilter}
            sort={sort}
            onFilter={setFilter}
            onSort={setSort}
            onMarkDone={markDone}
            selectedId={selected?.id}
            bulkOpen={!!search.bulk}
            pictureUrl={pictureUrl}
            onSelect={picked ? pick : select}
            onToggleBulk={toggleBulk}
            rowFilter={rowFilter}
            picked={picked}
            windowOptions={windowOptions}
            // Always drawn (with Select at least): labels arriving later never move the list.
            tools={
              <LabelFilter
                pageId={pageId}
                graph={labelsGraph}
                withToken={entry.withToken}
                ready={!!token}
                labels={pageLabels}
                customerIds={customerIds}
                active={activeLabel}
                onFilter={filterByLabel}
                selecting={!!picked}
                onSelecting={(on) => setPicked(on ? new Set() : undefined)}
              />
            }
            footer={
              picked ? (
                <SelectionBar
                  pageId={pageId}
                  graph={labelsGraph}
                  withToken={entry.withToken}
                  labels={pageLabels}
                  customerIds={pickedCustomers}
                  onDone={() => setPicked(undefined)}
                />
              ) : null
            }
          />
        </div>
        <div className={`min-h-0 min-w-0 flex-1 ${chosen ? 'flex' : 'hidden md:flex'}`}>
          {search.bulk && token ? (
            <Suspense fallback={<LoadingDots />}>
              <BulkWizard
                pageId={pageId}
                pageName={page.name}
                pageToken={token}
                withToken={entry.withToken}
                onClose={toggleBulk}
              />
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
              online={!offline}
              trial={subscription?.access_type === 'trial'}
              pictureUrl={pictureUrl(selected.customerId)}
              profileUrl={selected.link}
              uploadImage={upload}
              onCustomerMessageAt={onCustomerMessageAt}
              onBack={back}
              labels={
                <CustomerLabels
                  pageId={pageId}
                  customerId={selected.customerId}
                  graph={labelsGraph}
                  withToken={entry.withToken}
                  ready={!!token}
                />
              }
              onMarkDone={
                selectedRow?.needsReply ? () => void waiting.markDone(selected.customerId) : undefined
              }
              replying={replyingHere}
              onTyping={() => waiting.typing(selected.customerId)}
            />
          ) : null}
        </div>
      </div>
    </div>
  )
}
