/**
 * Notifications in the built app: the switch asks for permission only when turned on; a push shows one
 * notification per conversation (customer, page, text, tag), a newer one replaces it; a click opens the
 * conversation in the open window.
 *
 * Headless Chromium has no push service to subscribe with: when `PushManager.subscribe` fails there, the
 * device's subscription is stored through the API with an endpoint on the sandbox's push service, as the
 * app would have. The push itself is delivered to the service worker with the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`), and the click, which no protocol command can make, is dispatched in
 * the worker as a `notificationclick` event on the shown notification.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo, sandboxUserToken } from './support/login.ts'
import { pages } from './support/sandbox.ts'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { controlledByServiceWorker } from './support/service-worker.ts'

// Notifications are shown by the service worker, in the browser: the headless shell has none (the switch
// stays disabled there).
test.use({
  serviceWorkers: 'allow',
  launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
})

interface Shown {
  title: string
  body: string
  tag: string
  data: { url?: string } | null
}

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  await expect.poll(() => context.serviceWorkers().length, { timeout: 20_000 }).toBeGreaterThan(0)
  return context.serviceWorkers()[0]!
}

/** Delivers a push to the page's service worker through the DevTools protocol. */
async function deliverPush(page: Page, origin: string, payload: object): Promise<void> {
  // The worker is running and attached first: a push handed by the protocol to a worker it has to start
  // was lost at times (2 runs in 8 showed no notification at all).
  await (await serviceWorker(page.context())).evaluate(() => 0)
  const cdp = await page.context().newCDPSession(page)
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const reg = event.registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)
      if (reg) resolve(reg.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  })
  await cdp.detach()
}

/**
 * Delivers a push until a shown notification says `body`: a push the protocol hands over is still lost at
 * times on a loaded machine (the worker never gets its push event), so it is handed again, at most three
 * times. A conversation's notifications replace each other, so a repeat cannot show a second one.
 */
async function pushUntilShown(page: Page, origin: string, payload: { body: string }): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await deliverPush(page, origin, payload)
    const shown = await expect
      .poll(async () => (await shownNotifications(page)).some((n) => n.body.endsWith(payload.body)), {
        timeout: 5_000,
      })
      .toBe(true)
      .then(() => true)
      .catch(() => false)
    if (shown) return
  }
}

async function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready
    return (await reg.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as { url?: string } | null,
    }))
  })
}

/** A customer of the small demo page that is not the first of its list (so opening it is visible). */
async function customerOfSmallPage(baseURL: string): Promise<{ id: string; name: string }> {
  const token = await sandboxUserToken(baseURL)
  const graph = `${baseURL}/sandbox/graph/v25.0`
  const accounts = (await (await fetch(`${graph}/me/accounts?access_token=${token}`)).json()) as {
    data: Array<{ id: string; access_token?: string }>
  }
  const pageToken = accounts.data.find((p) => p.id === pages.small)!.access_token!
  const list = (await (
    await fetch(`${graph}/${pages.small}/conversations?fields=participants&limit=5&access_token=${pageToken}`)
  ).json()) as { data: Array<{ participants: { data: Array<{ id: string; name: string }> } }> }
  return list.data[3]!.participants.data.find((p) => p.id !== pages.small)!
}

const message = (customer: { id: string; name: string }, body: string) => ({
  type: 'message',
  pageId: pages.small,
  customerId: customer.id,
  title: customer.name,
  body,
  pageName: 'Kanha Bakery',
  url: `/${pages.small}?chat=${encodeURIComponent(JSON.stringify(customer.id))}`,
  tag: `conv:${pages.small}:${customer.id}`,
  lang: 'en',
  dir: 'ltr',
})

test('notifications: asked for only when turned on, one per conversation, a click opens the conversation', async ({
  page,
  context,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin
  await context.grantPermissions(['notifications'], { origin })
  await loginAsDemo(page)
  await controlledByServiceWorker(page)

  await page.goto('/account')
  const toggle = page.getByTestId('notifications-switch')
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await expect(toggle).toBeEnabled()
  // The section fits a phone's width in the layout: the switch sits beside its label, inside the card.
  const section = await page.getByTestId('notifications-section').boundingBox()
  const box = await toggle.boundingBox()
  expect(box!.x + box!.width).toBeLessThanOrEqual(section!.x + section!.width)

  await toggle.click()
  const subscribed = await expect(toggle)
    .toHaveAttribute('aria-checked', 'true', { timeout: 15_000 })
    .then(() => true)
    .catch(() => false)
  console.log(
    subscribed
      ? 'PushManager.subscribe succeeded in this Chromium'
      : 'PushManager.subscribe failed in this Chromium (no push service): the subscription is stored through the API',
  )
  const token = await page.evaluate(() =>
    decodeURIComponent(/pagecast_session=([^;]+)/.exec(document.cookie)![1]!),
  )
  if (!subscribed) {
    // No push service in headless Chromium: the app says so, and the device is registered by hand.
    await expect(page.getByRole('alert')).toBeVisible()
    const res = await fetch(`${baseURL}/api/v2/push/subscription`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        endpoint: `${origin}/sandbox/push/e2e-device`,
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
        locale: 'en',
      }),
    })
    expect(res.status).toBe(200)
  }
  // The hide-text setting is stored for the owner.
  await page.getByTestId('notifications-hide-text').click()
  await expect(page.getByTestId('notifications-hide-text')).toHaveAttribute('aria-checked', 'true')
  // The switch shows the choice at once; the server has it once its request lands.
  await expect
    .poll(async () => {
      const settings = await fetch(`${baseURL}/api/v2/push/settings`, {
        headers: { authorization: `Bearer ${token}` },
      })
      return settings.json()
    })
    .toEqual({ hideText: true })

  const customer = await customerOfSmallPage(baseURL!)
  await pushUntilShown(page, origin, message(customer, 'Are you open today?'))
  await expect
    .poll(() => shownNotifications(page), { timeout: 15_000 })
    .toEqual([
      {
        title: customer.name,
        body: 'Kanha Bakery · Are you open today?',
        tag: `conv:${pages.small}:${customer.id}`,
        data: {
          url: `/${pages.small}?chat=${encodeURIComponent(JSON.stringify(customer.id))}`,
          pageId: pages.small,
          customerId: customer.id,
        },
      },
    ])
  // A newer message of the same conversation replaces the notification.
  await pushUntilShown(page, origin, message(customer, 'Hello again'))
  await expect
    .poll(async () => (await shownNotifications(page)).map((n) => n.body), { timeout: 15_000 })
    .toEqual(['Kanha Bakery · Hello again'])

  // The click: the open window is told to open the conversation.
  const worker = await serviceWorker(context)
  await worker.evaluate(async () => {
    const sw = self as unknown as {
      registration: ServiceWorkerRegistration
      dispatchEvent(e: Event): boolean
    }
    const NotificationEvent = (
      globalThis as unknown as {
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event
      }
    ).NotificationEvent
    const [notification] = await sw.registration.getNotifications()
    // A script-made event cannot extend its life (waitUntil throws): the handler's work has started by then.
    try {
      sw.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }))
    } catch {
      // waitUntil on an untrusted event
    }
  })
  await expect(page).toHaveURL(new RegExp(`/${pages.small}\\?chat=%22${customer.id}%22$`), {
    timeout: 15_000,
  })
  await expect(page.getByTestId('chat-customer-name').first()).toHaveText(customer.name, { timeout: 20_000 })
  await expect.poll(() => shownNotifications(page)).toEqual([])

  // Turning the switch off on a device that could not subscribe changes nothing on the server's other devices.
  if (subscribed) {
    await page.goto('/account')
    await page.getByTestId('notifications-switch').click()
    await expect(page.getByTestId('notifications-switch')).toHaveAttribute('aria-checked', 'false')
  }
})
