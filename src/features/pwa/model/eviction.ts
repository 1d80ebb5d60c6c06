/**
 * Detects that the browser evicted the app's storage. A cookie survives eviction (it is not quota-managed
 * storage) while IndexedDB does not: the cookie says "a marker row was written", so a missing row means the
 * saved data is gone. The marker is written once the user has something to lose (a job in progress).
 */
import type { Dexie, EntityTable } from 'dexie'

/** Storage names: do not change without a migration (a renamed marker would report a false eviction). */
const MARKER_DB = 'pagecast-storage-marker'
export const MARKER_COOKIE = 'pagecast_storage_marker'
const MARKER_ID = 'marker'
const TEN_YEARS_S = 10 * 365 * 24 * 60 * 60

interface Marker {
  id: string
  writtenAt: number
}

type MarkerDb = Dexie & { markers: EntityTable<Marker, 'id'> }

let markerDbPromise: Promise<MarkerDb> | undefined
/** Dexie loads only when the marker is read or written, never for a visitor who has nothing saved. */
function markerDb(): Promise<MarkerDb> {
  markerDbPromise ??= import('dexie').then(({ Dexie }) => {
    const markers = new Dexie(MARKER_DB) as MarkerDb
    markers.version(1).stores({ markers: 'id' })
    return markers
  })
  return markerDbPromise
}

function hasCookie(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${MARKER_COOKIE}=`))
}

function setCookie(value: string, maxAge: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${MARKER_COOKIE}=${value}; Max-Age=${maxAge}; Path=/; SameSite=Strict${secure}`
}

export async function writeStorageMarker(): Promise<void> {
  await (await markerDb()).markers.put({ id: MARKER_ID, writtenAt: Date.now() })
  setCookie('1', TEN_YEARS_S)
}

/** True when the marker was written on this device but its row has vanished. Clears the cookie then. */
export async function detectEviction(): Promise<boolean> {
  if (!hasCookie()) return false
  const row = await markerDb()
    .then((markers) => markers.markers.get(MARKER_ID))
    .catch(() => undefined)
  if (row) return false
  setCookie('', 0)
  return true
}

/** For tests: simulates the browser clearing the saved data. */
export async function clearMarkerRowForTest(): Promise<void> {
  await (await markerDb()).markers.clear()
}
