/** Code fetched on demand: one fetch shared by every caller, tried again on the next call after a failure. */
export interface LoadOnce<T> {
  /** Starts the fetch (once; again after a failure) and resolves with its value. */
  load(): Promise<T>
  /** The value once fetched, for a synchronous first render; undefined before. */
  loaded(): T | undefined
}

export function loadOnce<T>(fetchIt: () => Promise<T>): LoadOnce<T> {
  let value: T | undefined
  let pending: Promise<T> | undefined
  return {
    load() {
      pending ??= fetchIt().then(
        (v) => (value = v),
        (err: unknown) => {
          // A failed fetch (a dropped connection) must be tried again on the next call, not kept.
          pending = undefined
          throw err
        },
      )
      return pending
    },
    loaded: () => value,
  }
}
