import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../../features/pages/components/home-page.tsx'
import { useSyncedPagesUnread } from './-home/use-synced-unread.ts'

export const Route = createFileRoute('/')({ component: HomeRoute })

function HomeRoute() {
  return <HomePage unreadByPage={useSyncedPagesUnread()} />
}
