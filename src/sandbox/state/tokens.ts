/**
 * Access tokens: user tokens (from the dialog, `/sandbox/token` or the exchange) and page tokens derived
 * from them. Page tokens change when a page's tokens are expired, like a password change on the network.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { UserKey } from './demo.ts'

export interface TokenInfo {
  kind: 'user' | 'page'
  user: UserKey
  pageId?: string
  granted: string[]
  declined: string[]
  issuedMs: number
  expiresMs: number
  longLived: boolean
  /** The app the token was issued to when not the sandbox's own (a token of another app, for tests). */
  appId?: string
}

export const SHORT_LIVED_S = 2 * 60 * 60
export const LONG_LIVED_S = 60 * 24 * 60 * 60

/**
 * A permission is granted or declined, never both, as the network answers: one named in both lists (a dialog
 * answer or a test token asking for it) counts as declined.
 */
export function splitGrants(
  granted: string[],
  declined: string[],
): { granted: string[]; declined: string[] } {
  const no = new Set(declined)
  return { granted: [...new Set(granted)].filter((p) => !no.has(p)), declined: [...no] }
}

/** The grants after a later dialog answer: it grants and declines what it names, the rest stays as it was. */
export function mergeGrants(
  earlier: { granted: string[]; declined: string[] },
  granted: string[],
  declined: string[],
): { granted: string[]; declined: string[] } {
  const answer = splitGrants(granted, declined)
  const named = new Set([...answer.granted, ...answer.declined])
  return splitGrants(
    [...earlier.granted.filter((p) => !named.has(p)), ...answer.granted],
    [...earlier.declined.filter((p) => !named.has(p)), ...answer.declined],
  )
}

export class TokenStore {
  private tokens = new Map<string, TokenInfo>()
  private expired = new Set<string>()
  /** Page tokens whose user lost the role on the page: the network refuses them for good. */
  private roleLost = new Set<string>()
  private pageGeneration = new Map<string, number>()
  private sessions = new Map<string, { user: UserKey; granted: string[]; declined: string[] }>()

  issueUser(
    user: UserKey,
    asked: string[],
    refused: string[] = [],
    longLived = false,
    appId?: string,
  ): string {
    const { granted, declined } = splitGrants(asked, refused)
    const token = `EAAS${randomBytes(24).toString('hex')}`
    const now = Date.now()
    this.tokens.set(token, {
      kind: 'user',
      user,
      granted: [...new Set(['public_profile', ...granted])].filter((p) => !declined.includes(p)),
      declined,
      issuedMs: now,
      expiresMs: now + (longLived ? LONG_LIVED_S : SHORT_LIVED_S) * 1000,
      longLived,
      ...(appId ? { appId } : {}),
    })
    return token
  }

  /** The same user token and page give the same page token until the page's tokens are expired. */
  pageToken(userToken: string, pageId: string): string {
    const user = this.tokens.get(userToken)!
    const gen = this.pageGeneration.get(pageId) ?? 0
    const token = `EAAP${createHmac('sha256', 'sandbox-page').update(`${userToken}:${pageId}:${gen}`).digest('hex').slice(0, 48)}`
    if (!this.tokens.has(token)) {
      this.tokens.set(token, {
        ...user,
        kind: 'page',
        pageId,
        expiresMs: Number.MAX_SAFE_INTEGER,
        longLived: true,
      })
    }
    return token
  }

  get(token: string): TokenInfo | undefined {
    return this.tokens.get(token)
  }

  isExpired(token: string, info: TokenInfo, now = Date.now()): boolean {
    return this.expired.has(token) || now >= info.expiresMs
  }

  /** Expires one token, or every page token of a page (new page tokens are issued afterwards). */
  expire(opts: { token?: string; page_id?: string }): number {
    let n = 0
    if (opts.token && this.tokens.has(opts.token)) {
      this.expired.add(opts.token)
      n++
    }
    if (opts.page_id) {
      for (const [token, info] of this.tokens) {
        if (info.kind === 'page' && info.pageId === opts.page_id) {
          this.expired.add(token)
          n++
        }
      }
      this.pageGeneration.set(opts.page_id, (this.pageGeneration.get(opts.page_id) ?? 0) + 1)
    }
    return n
  }

  /** Whether the token's user lost their role on its page since it was issued. */
  isRoleLost(token: string): boolean {
    return this.roleLost.has(token)
  }

  /**
   * The user lost their role on the page: every page token of it is refused from now on with the network's
   * error for it (not an expiry), and the accounts list hands out new tokens once the role is given back.
   */
  revokeRole(pageId: string): number {
    let n = 0
    for (const [token, info] of this.tokens) {
      if (info.kind === 'page' && info.pageId === pageId) {
        this.roleLost.add(token)
        n++
      }
    }
    this.pageGeneration.set(pageId, (this.pageGeneration.get(pageId) ?? 0) + 1)
    return n
  }

  clearExpired(): void {
    this.expired.clear()
    this.roleLost.clear()
  }

  openSession(user: UserKey, granted: string[], declined: string[]): string {
    const id = randomBytes(18).toString('base64url')
    this.sessions.set(id, { user, ...splitGrants(granted, declined) })
    return id
  }

  session(id: string | undefined): { user: UserKey; granted: string[]; declined: string[] } | undefined {
    return id ? this.sessions.get(id) : undefined
  }

  closeSession(id: string | undefined): void {
    if (id) this.sessions.delete(id)
  }
}
