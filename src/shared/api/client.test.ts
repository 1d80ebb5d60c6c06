import { i18n } from '@lingui/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from './client.ts'
import { dismissAll, notificationStore } from '../notifications/store.ts'

const titles = () => notificationStore.getState().map((n) => n.title)

/** `fetch` failing as the browser fails it when no answer comes, or answering `status`. */
function network(answer: 'down' | number) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (answer === 'down') throw new TypeError('Failed to fetch')
      return new Response(JSON.stringify({ message: 'Internal Error' }), { status: answer })
    }),
  )
}

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterEach(() => {
  dismissAll()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('a call that gets no answer', () => {
  it('says the connection is lost once, however many calls fail, and never as an "Internal Error"', async () => {
    network('down')
    for (let i = 0; i < 3; i++) await expect(api('/user')).rejects.toMatchObject({ status: 0 })
    expect(titles()).toEqual(['No connection'])
    const text = JSON.stringify(notificationStore.getState())
    expect(text).not.toContain('Failed to fetch')
    expect(text).not.toContain('Internal Error')
  })

  it('says it again once the server answered in between', async () => {
    network('down')
    await expect(api('/user')).rejects.toMatchObject({ status: 0 })
    dismissAll()
    network(200)
    await api('/user')
    network('down')
    await expect(api('/user')).rejects.toMatchObject({ status: 0 })
    expect(titles()).toEqual(['No connection'])
  })

  it('stays silent while the device is offline: the offline banner says it', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    network('down')
    await expect(api('/user')).rejects.toMatchObject({ status: 0 })
    expect(titles()).toEqual([])
  })
})

describe('a server error', () => {
  it('is a red "Internal Error" in the user’s words, without the server’s English', async () => {
    network(500)
    await expect(api('/user')).rejects.toMatchObject({ status: 500 })
    expect(notificationStore.getState()).toMatchObject([
      {
        kind: 'error',
        title: 'Internal Error',
        message: 'The server could not finish this. Try again in a moment.',
      },
    ])
  })
})
