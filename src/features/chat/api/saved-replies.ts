/**
 * The signed-in user's saved replies through TanStack Query: one list under `savedRepliesKey`, refreshed
 * after every change. The list belongs to the user, so it is the same on every device and every page.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../shared/api/client.ts'
import { userScopedKey } from '../../../shared/api/user.ts'
import {
  type SavedReply,
  type SavedReplyBody,
  savedRepliesResponse,
  savedReplyResponse,
} from '../../../core/contracts/saved-replies.ts'

export const savedRepliesKey = userScopedKey('saved-replies')

export async function listSavedReplies(): Promise<SavedReply[]> {
  return savedRepliesResponse.parse(await api<unknown>('/saved-replies')).data
}

export function savedRepliesQueryOptions() {
  return queryOptions({ queryKey: savedRepliesKey, queryFn: listSavedReplies })
}

export async function createSavedReply(body: SavedReplyBody): Promise<SavedReply> {
  return savedReplyResponse.parse(await api<unknown>('/saved-replies', { method: 'POST', body })).data
}

export async function updateSavedReply(id: string, body: SavedReplyBody): Promise<SavedReply> {
  const path = `/saved-replies/${encodeURIComponent(id)}`
  return savedReplyResponse.parse(await api<unknown>(path, { method: 'PUT', body })).data
}

export async function deleteSavedReply(id: string): Promise<void> {
  await api(`/saved-replies/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/** Save (create without an id, edit with one) and delete, each refreshing the list when it settles. */
export function useSavedReplyMutations() {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: savedRepliesKey })
  const save = useMutation({
    mutationFn: ({ id, ...body }: SavedReplyBody & { id?: string }) =>
      id ? updateSavedReply(id, body) : createSavedReply(body),
    onSettled: refresh,
  })
  const remove = useMutation({ mutationFn: deleteSavedReply, onSettled: refresh })
  return { save, remove }
}
