/**
 * `?modal=marketing`: the marketing messages of the page whose screen is open (`/{pageId}`), from its header,
 * its sidebar or the bulk wizard. The modal layer sits outside the router's tree, so the page is read from
 * the router itself (on another screen there is no page, and nothing to show).
 */
import { useSyncExternalStore } from 'react'
import { MarketingPanel } from '../../features/marketing/index.ts'
import { router } from '../router.ts'

function currentPageId(): string | undefined {
  const match = router.state.matches.find((m) => m.routeId === '/$pageId')
  return (match?.params as { pageId?: string } | undefined)?.pageId
}

export function MarketingModalBody() {
  const pageId = useSyncExternalStore((l) => router.subscribe('onResolved', l), currentPageId)
  return pageId ? <MarketingPanel pageId={pageId} /> : null
}
