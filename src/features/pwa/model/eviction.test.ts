import { afterEach, describe, expect, it } from 'vitest'
import { MARKER_COOKIE, clearMarkerRowForTest, detectEviction, writeStorageMarker } from './eviction.ts'

afterEach(() => {
  document.cookie = `${MARKER_COOKIE}=; Max-Age=0; Path=/`
})

describe('eviction detection', () => {
  it('reports nothing on a device that never stored a job', async () => {
    expect(await detectEviction()).toBe(false)
  })

  it('reports nothing while the marker row is still there', async () => {
    await writeStorageMarker()
    expect(await detectEviction()).toBe(false)
  })

  it('reports an eviction once when the marker row vanished but the cookie remains', async () => {
    await writeStorageMarker()
    await clearMarkerRowForTest()
    expect(await detectEviction()).toBe(true)
    expect(await detectEviction()).toBe(false)
  })
})
