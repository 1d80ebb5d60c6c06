/** `POST /api/v2/upload`: multipart `image` + `access_type`, authorised by the user's own bearer. */
import type { SubscriptionState } from '../../core/contracts/api.ts'
import { api } from './client.ts'

export async function uploadImage(
  file: File,
  accessType: SubscriptionState['access_type'],
  /** The bytes sent so far and their total, while the image goes up. */
  onProgress?: (sent: number, total: number) => void,
): Promise<{ url: string }> {
  const form = new FormData()
  form.append('image', file)
  form.append('access_type', accessType ?? 'paid')
  const res = await api<{ url?: string; data?: { url?: string } }>('/upload', {
    method: 'POST',
    body: form,
    // XMLHttpRequest is the browser's only request that reports its upload (a photo over a slow link); its
    // sender loads with the first picture sent, not with the app.
    ...(onProgress ? { send: (await import('./upload-sender.ts')).xhrFetch(onProgress) } : {}),
  })
  const url = res?.url ?? res?.data?.url
  if (!url) throw new Error('upload answered without a url')
  return { url }
}
