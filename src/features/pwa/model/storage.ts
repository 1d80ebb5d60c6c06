/** Persistent storage and the low-space check, over `navigator.storage`. */

/** Below this much free quota, saving conversations and job progress may start to fail. */
export const LOW_FREE_BYTES = 50 * 1024 * 1024
/** Or when this share of the quota is used, whatever the absolute size. */
export const LOW_USED_RATIO = 0.9

/**
 * Asks the browser to keep this origin's data under storage pressure. Call it once the user has something to
 * lose (a bulk job in progress). Resolves to whether storage is persistent; never throws.
 */
export async function requestPersistentStorage(
  storage: StorageManager | undefined = navigator.storage,
): Promise<boolean> {
  try {
    if (!storage?.persist) return false
    if (await storage.persisted()) return true
    return await storage.persist()
  } catch {
    return false
  }
}

export function isStorageLow({ usage, quota }: StorageEstimate): boolean {
  if (!quota || usage === undefined) return false
  return quota - usage < LOW_FREE_BYTES || usage / quota > LOW_USED_RATIO
}

export async function checkStorageLow(
  storage: StorageManager | undefined = navigator.storage,
): Promise<boolean> {
  try {
    if (!storage?.estimate) return false
    return isStorageLow(await storage.estimate())
  } catch {
    return false
  }
}
