import { describe, expect, it } from 'vitest'
import {
  isDataRequest,
  isEventStream,
  isPictureRequest,
  isShellNavigation,
  isUploadedImage,
  pictureCacheKey,
} from './match.ts'

const origin = 'https://app.example'
const u = (s: string) => new URL(s, origin)

describe('service worker request matching', () => {
  it('treats every API call as data that is never cached', () => {
    expect(isDataRequest(u('/api/v2/user'), origin)).toBe(true)
    expect(isPictureRequest(u('/api/v2/user'), origin)).toBe(false)
    expect(isUploadedImage(u('/api/v2/user'), origin)).toBe(false)
  })

  it('tells the live event stream apart (no route answers it), with or without its query', () => {
    expect(isEventStream(u('/api/v2/events'), origin)).toBe(true)
    expect(isEventStream(u('/api/v2/events?tab=3f1c&since=42'), origin)).toBe(true)
    expect(isEventStream(u('/api/v2/events/'), origin)).toBe(true)
    expect(isEventStream(u('/api/v2/eventsx'), origin)).toBe(false)
    expect(isEventStream(u('/api/v2/user'), origin)).toBe(false)
    expect(isEventStream(new URL('https://other.example/api/v2/events'), origin)).toBe(false)
    expect(isUploadedImage(u('/api/v2/events'), origin)).toBe(false)
    expect(isPictureRequest(u('/api/v2/events'), origin)).toBe(false)
    expect(isShellNavigation('/api/v2/events')).toBe(false)
  })

  it('treats Graph JSON on the sandbox and on the real network as data', () => {
    expect(isDataRequest(u('/sandbox/graph/v19.0/me/accounts'), origin)).toBe(true)
    expect(isDataRequest(new URL('https://graph.facebook.com/v19.0/123/conversations'), origin)).toBe(true)
    expect(isPictureRequest(new URL('https://graph.facebook.com/v19.0/123/conversations'), origin)).toBe(
      false,
    )
  })

  it('recognises Graph pictures on the sandbox, on the Graph and on the picture CDNs', () => {
    expect(isPictureRequest(u('/sandbox/graph/123/picture'), origin)).toBe(true)
    expect(isPictureRequest(u('/sandbox/graph/v19.0/123/picture'), origin)).toBe(true)
    expect(isPictureRequest(new URL('https://graph.facebook.com/123/picture?type=large'), origin)).toBe(true)
    expect(isPictureRequest(new URL('https://scontent-xx.fbcdn.net/v/t1/p50x50/a.jpg'), origin)).toBe(true)
    expect(
      isPictureRequest(new URL('https://platform-lookaside.fbsbx.com/platform/profilepic/?psid=1'), origin),
    ).toBe(true)
    expect(isDataRequest(u('/sandbox/graph/123/picture'), origin)).toBe(false)
  })

  it('does not mistake a look-alike host for a picture CDN', () => {
    expect(isPictureRequest(new URL('https://fbcdn.net.evil.example/a.jpg'), origin)).toBe(false)
  })

  it('recognises uploaded images on our own origin only', () => {
    expect(isUploadedImage(u('/uploads/abc.jpg'), origin)).toBe(true)
    expect(isUploadedImage(new URL('https://other.example/uploads/abc.jpg'), origin)).toBe(false)
  })

  it('answers app routes with the shell but leaves the API, sandbox and uploads to the network', () => {
    expect(isShellNavigation('/')).toBe(true)
    expect(isShellNavigation('/pages/123/inbox')).toBe(true)
    expect(isShellNavigation('/api/v2/user')).toBe(false)
    expect(isShellNavigation('/sandbox/dialog/oauth')).toBe(false)
    expect(isShellNavigation('/uploads/abc.jpg')).toBe(false)
    expect(isShellNavigation('/apiary')).toBe(true)
  })

  it('keys a picture without the access token, so a refreshed token finds the cached copy', () => {
    const a = pictureCacheKey(u('/sandbox/graph/v25.0/123/picture?type=normal&access_token=old'))
    const b = pictureCacheKey(u('/sandbox/graph/v25.0/123/picture?type=normal&access_token=new'))
    expect(a).toBe(b)
    expect(a).not.toContain('access_token')
    expect(a).toContain('type=normal')
    expect(pictureCacheKey(u('/sandbox/graph/v25.0/456/picture?access_token=old'))).not.toBe(a)
  })

  it('keeps the CDN signature of a picture in its key', () => {
    const cdn = new URL('https://scontent-xx.fbcdn.net/v/t1/p50x50/a.jpg?oh=abc&oe=123')
    expect(pictureCacheKey(cdn)).toBe(cdn.href)
  })
})
