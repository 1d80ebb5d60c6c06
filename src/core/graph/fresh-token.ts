/**
 * "Refresh the token once": a Graph call whose page token has expired (kind 'auth', code 190) gets a fresh
 * token and runs once more. The inbox's reads and the chat's outbox both go through it.
 */
import { failureKind } from './delivery.ts'

/**
 * Runs a Graph call with `token`; on an expired token asks `refresh` for a fresh one and runs it again with
 * that. A refresh that finds none (undefined) leaves the first failure standing.
 */
export async function withFreshToken<T>(
  token: string,
  refresh: () => Promise<string | undefined>,
  call: (token: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(token)
  } catch (err) {
    if (!isAuthError(err)) throw err
    const fresh = await refresh()
    if (!fresh) throw err
    return call(fresh)
  }
}

export function isAuthError(err: unknown): boolean {
  return failureKind(err) === 'auth'
}

export function isNetworkError(err: unknown): boolean {
  return failureKind(err) === 'network'
}
