import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../../features/pages/components/home-page.tsx'
import { InstallCard } from '../../shared/install/install-offer.tsx'
import { prefetchPageStanding, usePageStanding } from './-home/use-page-standing.ts'
import { usePagesUnread } from './-home/use-pages-unread.ts'

export const Route = createFileRoute('/')({
  // The question leaves with the route's code; the route is drawn without waiting for its answer.
  loader: ({ context }) => {
    void prefetchPageStanding(context.queryClient)
  },
  component: HomeRoute,
})

function HomeRoute() {
  const unreadByPage = usePagesUnread()
  const { standing, settled } = usePageStanding()
  return (
    <>
      <InstallCard />
      <HomePage unreadByPage={unreadByPage} standing={standing} cardsReady={settled} />
    </>
  )
}
