/** The signed-in user's sessions (one per device): `GET /sessions`, `DELETE /sessions/:id`, sign out others. */
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../shared/api/client.ts'
import { userScopedKey } from '../../../shared/api/user.ts'
import { type SessionInfo, sessionsResponse } from '../../../core/contracts/api.ts'

export const sessionsKey = userScopedKey('sessions')

export async function listSessions(): Promise<SessionInfo[]> {
  return sessionsResponse.parse(await api<unknown>('/sessions')).data
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: sessionsKey, queryFn: listSessions })
}

/** Ends another device's session at once; this device signs out through the normal sign-out instead. */
export async function revokeSession(id: string): Promise<void> {
  await api(`/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/** Ends every session of the user but this device's. */
export async function revokeOtherSessions(): Promise<number> {
  const body = await api<{ revoked: number }>('/sessions/revoke-others', { method: 'POST', body: {} })
  return body.revoked
}
