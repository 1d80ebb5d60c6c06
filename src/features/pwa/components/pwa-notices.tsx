/** Everything the PWA feature shows: mounted once by the app, next to the router. */
import { StorageNotice } from './storage-notice.tsx'
import { UpdatePrompt } from './update-prompt.tsx'

export function PwaNotices() {
  return (
    <>
      <UpdatePrompt />
      <StorageNotice />
    </>
  )
}
