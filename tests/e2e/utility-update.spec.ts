/**
 * A utility message from a chat on a 360 x 740 phone, with the sandbox as the network: a customer last seen
 * three days ago is outside the window, so the chat offers "Send an update"; the owner allows the page to
 * send updates (the network's dialog), copies Meta's "order ready" template, fills the order number (the
 * name is filled in), previews and sends. The sandbox records a utility message with the filled
 * placeholders, and the chat shows it with its receipt mark. The sheet's controls are at least 44 x 44, its
 * boxes stay on the screen and no text is cut; once in English and once in Urdu (right to left).
 * Screenshots in tests/artifacts/utility/.
 */
import { mkdirSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { pressContinue } from './support/dialog.ts'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo, sandboxUserToken } from './support/login.ts'
import { pages } from './support/sandbox.ts'
import { smallTargets } from './support/targets.ts'

const SHOTS = 'tests/artifacts/utility'
const PHONE = { width: 360, height: 740 }
const DAY = 86_400_000
const GRAPH = 'sandbox/graph/v25.0'

interface UtilitySend {
  recipient_id: string
  template_name: string
  parameters: string[]
  text: string
}

/** A customer of the small page whose last message is about three days old, with their name. */
async function customerThreeDaysAgo(baseURL: string): Promise<{ psid: string; name: string }> {
  const user = await sandboxUserToken(baseURL)
  const accounts = (await (
    await fetch(`${baseURL}/${GRAPH}/me/accounts?fields=id,access_token&access_token=${user}`)
  ).json()) as { data: { id: string; access_token: string }[] }
  const token = accounts.data.find((a) => a.id === pages.small)!.access_token
  const convs = (await (
    await fetch(
      `${baseURL}/${GRAPH}/${pages.small}/conversations?fields=participants,can_reply,messages.limit(10){from,created_time}&limit=100&access_token=${token}`,
    )
  ).json()) as {
    data: {
      can_reply?: boolean
      participants: { data: { id: string; name: string }[] }
      messages?: { data: { from: { id: string }; created_time: string }[] }
    }[]
  }
  const now = Date.now()
  for (const c of convs.data) {
    const customer = c.participants.data.find((p) => p.id !== pages.small)
    const last = c.messages?.data.find((m) => m.from.id !== pages.small)
    if (!customer || !last || c.can_reply === false) continue
    const age = now - new Date(last.created_time).getTime()
    if (age > 2.5 * DAY && age < 3.5 * DAY) return { psid: customer.id, name: customer.name }
  }
  throw new Error('no customer last seen three days ago on the small page')
}

async function sends(baseURL: string): Promise<UtilitySend[]> {
  const res = await fetch(`${baseURL}/sandbox/utility/sends?page_id=${pages.small}`)
  return ((await res.json()) as { data: UtilitySend[] }).data
}

/** Every box inside the screen, every control at least 44 x 44, no text cut by its box. */
async function fitsThePhone(page: Page, sheet: Locator): Promise<void> {
  const box = (await sheet.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(-0.5)
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 0.5)
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height + 0.5)
  expect(await smallTargets(page)).toEqual([])
  const cut = await sheet.evaluate((root) =>
    Array.from(root.querySelectorAll<HTMLElement>('p, span, label, button, h2, bdi'))
      .filter((el) => el.checkVisibility() && (el.textContent ?? '').trim())
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      .map((el) => el.textContent),
  )
  expect(cut).toEqual([])
}

async function sendOrderReady(page: Page, baseURL: string, shots: string) {
  mkdirSync(SHOTS, { recursive: true })
  const customer = await customerThreeDaysAgo(baseURL)
  const before = (await sends(baseURL)).length
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  await page.goto(`/${pages.small}?chat=${customer.psid}`)
  const open = page.getByTestId('send-update')
  await expect(open).toBeVisible({ timeout: 30_000 })
  await open.click()
  const sheet = page.getByTestId('update-sheet')
  await expect(sheet).toBeVisible()
  // The network's dialog asks for page_utility_messaging once.
  const allow = sheet.getByTestId('update-allow')
  if (await allow.isVisible()) {
    const popupPromise = page.waitForEvent('popup')
    await allow.click()
    const popup = await popupPromise
    await popup.waitForLoadState('domcontentloaded')
    await expect(popup.getByText('page_utility_messaging').first()).toBeVisible()
    await pressContinue(popup)
  }
  await sheet.getByTestId('update-search').fill('order')
  const orderReady = sheet.getByTestId('library-order_ready_1')
  await expect(orderReady).toBeVisible({ timeout: 20_000 })
  await fitsThePhone(page, sheet)
  await page.screenshot({ path: `${SHOTS}/${shots}-1-library.png` })
  await orderReady.click()
  const first = customer.name.split(/\s+/)[0]!
  await expect(sheet.getByTestId('template-param-1')).toHaveValue(first)
  await sheet.getByTestId('template-param-2').fill('#1042')
  await expect(sheet.getByTestId('template-preview')).toContainText('#1042')
  await expect(sheet.getByTestId('template-preview')).toContainText(first)
  await fitsThePhone(page, sheet)
  await page.screenshot({ path: `${SHOTS}/${shots}-2-preview.png` })
  await sheet.getByTestId('update-send').click()
  await expect(sheet.getByTestId('update-sent')).toBeVisible({ timeout: 20_000 })

  const recorded = (await sends(baseURL)).slice(before)
  expect(recorded).toHaveLength(1)
  expect(recorded[0]).toMatchObject({
    recipient_id: customer.psid,
    template_name: 'order_ready',
    parameters: [first, '#1042'],
  })
  await page.keyboard.press('Escape')
  await expect(sheet).toBeHidden()
  // The chat shows the message the customer got, with its receipt mark.
  const bubble = page.getByTestId('chat-view').getByText(recorded[0]!.text)
  await expect(bubble).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('chat-view').getByTestId('receipt-mark').last()).toBeVisible({
    timeout: 20_000,
  })
  await page.screenshot({ path: `${SHOTS}/${shots}-3-chat.png` })
  return recorded[0]!
}

test('outside the window a chat sends an "order ready" update from Meta\'s library', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const sent = await sendOrderReady(page, baseURL!, 'en')
  expect(sent.text).toMatch(/^Hi .+, your order #1042 is ready for pickup\.$/)
})

test.describe('in Urdu', () => {
  test.use({ locale: 'ur-PK' })
  test('the same update, right to left', async ({ page, baseURL }) => {
    test.setTimeout(150_000)
    await page.goto('/')
    const sent = await sendOrderReady(page, baseURL!, 'ur')
    expect(sent.text).toContain('#1042')
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
  })
})
