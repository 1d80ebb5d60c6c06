/** Everything the PWA feature shows: mounted once, in a root of their own (mount.tsx). */
import { StorageNotice, type StorageNoticeProps } from './storage-notice.tsx'
import { UpdatePrompt } from './update-prompt.tsx'
import type { UpdateStore } from '../model/update-store.ts'

export function PwaNotices({ update, ...storage }: StorageNoticeProps & { update: UpdateStore }) {
  return (
    <>
      <UpdatePrompt store={update} />
      <StorageNotice {...storage} />
    </>
  )
}
