/** The store's interface, which PGlite and a PostgreSQL server both implement; `openStore` (./store.ts) opens one. */

/** A Uint8Array (a Buffer too) is sent as BYTEA and comes back as one; an array's nulls are NULL elements. */
export type SqlParam =
  | string
  | number
  | boolean
  | null
  | Date
  | Uint8Array
  | readonly (string | null)[]
  | readonly (number | null)[]
  | readonly boolean[]

export interface Queryable {
  query<T extends object>(sql: string, params?: readonly SqlParam[]): Promise<T[]>
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Store extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction; a thrown error rolls it back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** Runs `fn` on one dedicated connection (session-level advisory locks need one). */
  session<T>(fn: (db: Queryable) => Promise<T>): Promise<T>
  /**
   * Hears every `NOTIFY channel` sent on this database, by any instance: `onNotify` gets each payload. On a
   * server the listening connection is re-opened after it drops; `onResume` is called then, since what was
   * sent in between was not heard. Resolves with a function that stops listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onResume?: () => void,
  ): Promise<() => Promise<void>>
  /** Cuts the listening connection as a network failure would (tests of the reconnection; server only). */
  dropListener?(): void
  close(): Promise<void>
}
