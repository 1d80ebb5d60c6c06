import { describe, expect, it } from 'vitest'
import { notificationFor, openFromNotification, parsePushPayload, safeAppUrl, showPush } from './push.ts'

const origin = 'https://app.example'
const message = {
  type: 'message',
  pageId: '540022345878660',
  customerId: '7001',
  title: 'Sokha',
  body: 'Are you open today?',
  pageName: 'Kanha Bakery',
  url: '/540022345878660?chat=7001',
  tag: 'conv:540022345878660:7001',
  lang: 'km',
  dir: 'ltr',
}

describe('a push in the service worker', () => {
  it('becomes one notification per conversation naming the customer and the page', () => {
    const payload = parsePushPayload(message)
    expect(payload).not.toBeNull()
    const { title, options } = notificationFor(payload!)
    expect(title).toBe('Sokha')
    expect(options).toMatchObject({
      body: 'Kanha Bakery · Are you open today?',
      tag: 'conv:540022345878660:7001',
      renotify: true,
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      lang: 'km',
      dir: 'ltr',
      data: { url: '/540022345878660?chat=7001', pageId: '540022345878660', customerId: '7001' },
    })
  })

  it('refuses what is not a payload, and still shows a notification for it', async () => {
    for (const bad of [
      null,
      'text',
      { ...message, title: 3 },
      { ...message, type: 'other' },
      { ...message, tag: undefined },
    ])
      expect(parsePushPayload(bad)).toBeNull()
    const shown: Array<[string, NotificationOptions | undefined]> = []
    await showPush({ showNotification: async (t, o) => void shown.push([t, o]) }, 'garbage', {
      title: 'Pagecast',
    })
    expect(shown).toEqual([['Pagecast', expect.objectContaining({ data: { url: '/' } })]])
  })

  it('opens only paths of the app', () => {
    expect(safeAppUrl('/p?chat=1', origin)).toBe('/p?chat=1')
    expect(safeAppUrl('https://evil.example/x', origin)).toBe('/')
    expect(safeAppUrl('//evil.example/x', origin)).toBe('/')
  })
})

interface FakeWindow {
  url: string
  focused: boolean
  visibilityState: DocumentVisibilityState
  posted: unknown[]
  focusedByClick: boolean
  postMessage(m: unknown): void
  focus(): Promise<FakeWindow>
}

function fakeWindow(
  url: string,
  focused = false,
  visibilityState: DocumentVisibilityState = 'hidden',
): FakeWindow {
  const w: FakeWindow = {
    url,
    focused,
    visibilityState,
    posted: [],
    focusedByClick: false,
    postMessage: (m) => void w.posted.push(m),
    focus: async () => {
      w.focusedByClick = true
      return w
    },
  }
  return w
}

function fakeClients(windows: FakeWindow[]) {
  const opened: string[] = []
  const clients = {
    matchAll: async () => windows,
    openWindow: async (url: string) => {
      opened.push(url)
      return null
    },
  } as unknown as Clients
  return { clients, opened }
}

describe('a click on the notification', () => {
  it('focuses the visible window of the app and tells it to open the conversation', async () => {
    const hidden = fakeWindow(`${origin}/`)
    const visible = fakeWindow(`${origin}/account`, false, 'visible')
    const other = fakeWindow('https://other.example/', true, 'visible')
    const { clients, opened } = fakeClients([hidden, other, visible])
    await openFromNotification(clients, origin, message.url)
    expect(visible.posted).toEqual([{ type: 'OPEN_URL', url: message.url }])
    expect(visible.focusedByClick).toBe(true)
    expect(hidden.posted).toEqual([])
    expect(other.posted).toEqual([])
    expect(opened).toEqual([])
  })

  it('opens a window on the conversation when none is open', async () => {
    const { clients, opened } = fakeClients([fakeWindow('https://other.example/')])
    await openFromNotification(clients, origin, message.url)
    expect(opened).toEqual([message.url])
  })
})
