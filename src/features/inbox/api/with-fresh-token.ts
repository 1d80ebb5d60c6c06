import { failureKind } from '../../../shared/graph/delivery.ts'

/** Runs a Graph call; on an expired page token (kind 'auth') gets a fresh one once and runs it again. */
export async function withFreshToken<T>(
  token: string,
  refresh: () => Promise<string>,
  call: (token: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(token)
  } catch (err) {
    if (!isAuthError(err)) throw err
    return call(await refresh())
  }
}

export function isAuthError(err: unknown): boolean {
  return failureKind(err) === 'auth'
}

export function isNetworkError(err: unknown): boolean {
  return failureKind(err) === 'network'
}
