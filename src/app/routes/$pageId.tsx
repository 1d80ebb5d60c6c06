import { createFileRoute } from '@tanstack/react-router'
import { firstScreenShown, useFirstScreenShown } from '../../shared/ui/first-screen.ts'
import { lazyComponent } from '../../shared/ui/lazy-component.tsx'
import { LoadingDots } from '../../shared/ui/loading-dots.tsx'

export interface PageInboxSearch {
  /** The selected conversation. */
  c?: string
  /** The bulk wizard is open. */
  bulk?: 1
  /** The conversation with this customer (PSID): how a notification opens a conversation. */
  chat?: string
  /** The list shows only the conversations of customers with this page label (its id). */
  label?: string
  /** The list's filter (src/features/inbox/model/list-view.ts); absent: All. */
  filter?: 'unread' | 'needs_reply' | 'window_closed'
  /** The list's order; absent: newest first. */
  sort?: 'window'
}

/** A customer id from the URL; the router parses `?chat=123` as a number, exact only up to 2^53. */
function chatParam(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return undefined
}

/** A custom label's id from the URL (numeric, parsed as a number by the router when small enough). */
function labelParam(value: unknown): string | undefined {
  const id = chatParam(value)
  return id && /^\d{1,32}$/.test(id) ? id : undefined
}

/**
 * The inbox's code (with the local database) is fetched by the route's loader, which also runs when the
 * route is preloaded, and is not awaited: the layout shows at once, with the dots where the inbox will be.
 * On a start it is asked for once that layout is painted, not with the code and the requests the layout
 * waits for: on a slow connection they would share the same few connections and the same bandwidth.
 */
const PageInbox = lazyComponent(
  () => import('./-page-inbox/page-inbox.tsx').then((m) => m.PageInbox),
  <LoadingDots />,
)

export const Route = createFileRoute('/$pageId')({
  validateSearch: (search: Record<string, unknown>): PageInboxSearch => ({
    c: typeof search.c === 'string' && search.c ? search.c : undefined,
    bulk: search.bulk === 1 || search.bulk === '1' ? 1 : undefined,
    chat: chatParam(search.chat),
    label: labelParam(search.label),
    filter:
      search.filter === 'unread' || search.filter === 'needs_reply' || search.filter === 'window_closed'
        ? search.filter
        : undefined,
    sort: search.sort === 'window' ? 'window' : undefined,
  }),
  loader: () => {
    void firstScreenShown().then(() => PageInbox.load().catch(() => undefined))
  },
  component: PageInboxRoute,
})

function PageInboxRoute() {
  const { pageId } = Route.useParams()
  // The inbox is a large first render: on a start the layout around it is painted first, then the inbox
  // follows as a transition, rendered in slices that leave the page responsive.
  const ready = useFirstScreenShown()
  if (!ready) return <LoadingDots />
  // A new page is a new inbox: every page, customer, chat and wizard state starts over.
  return <PageInbox.View key={pageId} pageId={pageId} />
}
