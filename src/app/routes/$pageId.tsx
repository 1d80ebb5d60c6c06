import { createFileRoute } from '@tanstack/react-router'
import { PageInbox } from './-page-inbox/page-inbox.tsx'

export interface PageInboxSearch {
  /** The selected conversation. */
  c?: string
  /** The bulk wizard is open. */
  bulk?: 1
}

export const Route = createFileRoute('/$pageId')({
  validateSearch: (search: Record<string, unknown>): PageInboxSearch => ({
    c: typeof search.c === 'string' && search.c ? search.c : undefined,
    bulk: search.bulk === 1 || search.bulk === '1' ? 1 : undefined,
  }),
  component: PageInboxRoute,
})

function PageInboxRoute() {
  const { pageId } = Route.useParams()
  // A new page is a new inbox: every page, customer, chat and wizard state starts over.
  return <PageInbox key={pageId} pageId={pageId} />
}
