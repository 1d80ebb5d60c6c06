/**
 * The page's custom labels at 360 x 740, against the sandbox's Custom Labels API: a label added in a chat is on
 * the customer through the Graph; a label set as the Page Inbox would (the sandbox's control) shows in the list
 * and filters it (?label=); rows selected by thumb are labelled together; a bulk send to a label reaches exactly
 * its members inside the window with their first names. Every control of the new screens is at least 44 x 44
 * and no text is cut, in English and in Urdu (right to left).
 */
import type { Page } from '@playwright/test'
import { bulkTest, eligible, expect, login, openWizard, pages, sentLog, waitForCard } from './bulk-support.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

const test = bulkTest()
test.use({ viewport: { width: 360, height: 740 } })

const PAGE = pages.small

/** The Graph as the Page Inbox's side sees it: the page's token for the small page. */
async function graphOf(baseURL: string) {
  const config = (await (await fetch(`${baseURL}/api/v2/config`)).json()) as {
    graphUrl: string
    graphVersion: string
  }
  const base = config.graphUrl.startsWith('/') ? `${baseURL}${config.graphUrl}` : config.graphUrl
  const root = `${base}/${config.graphVersion}`
  const { access_token } = (await (
    await fetch(`${baseURL}/sandbox/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'demo' }),
    })
  ).json()) as { access_token: string }
  const accounts = (await (
    await fetch(`${root}/me/accounts?fields=id,access_token&access_token=${access_token}`)
  ).json()) as { data: { id: string; access_token?: string }[] }
  const token = accounts.data.find((a) => a.id === PAGE)!.access_token!
  const get = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${root}/${path}${path.includes('?') ? '&' : '?'}access_token=${token}`)).json()) as T
  return {
    labelsOf: async (psid: string) =>
      (
        await get<{ data: { page_label_name: string }[] }>(`${psid}/custom_labels?fields=page_label_name`)
      ).data.map((l) => l.page_label_name),
    pageLabels: async () =>
      (
        await get<{ data: { page_label_name: string }[] }>(`${PAGE}/custom_labels?fields=page_label_name`)
      ).data.map((l) => l.page_label_name),
    customers: async () =>
      (
        await get<{ data: { participants: { data: { id: string; name: string }[] } }[] }>(
          `${PAGE}/conversations?fields=participants&limit=100`,
        )
      ).data.map((c) => c.participants.data[0]!),
  }
}

/** Sets a label on a customer as the Page Inbox would. */
async function inboxLabel(baseURL: string, customerId: string, label: string): Promise<string> {
  const res = await fetch(`${baseURL}/sandbox/labels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: PAGE, customer_id: customerId, label }),
  })
  return ((await res.json()) as { id: string }).id
}

/** No control under 44 x 44 and no text cut, on the screen as it is. */
async function fits(page: Page, screen: string) {
  expect(await smallTargets(page), `${screen}: small targets`).toEqual([])
  expect(await misfits(page), `${screen}: text that does not fit`).toEqual([])
  await page.screenshot({ path: `tests/artifacts/labels/${screen}.png` })
}

async function inUrdu(page: Page) {
  await page.evaluate(() => localStorage.setItem('pagecast-locale', 'ur'))
}

test('a label created in a chat is on the customer through the Graph, and fits in English and Urdu', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await login(page)
  const graph = await graphOf(baseURL!)
  const customer = (await graph.customers())[2]!
  for (const lang of ['en', 'ur'] as const) {
    if (lang === 'ur') await inUrdu(page)
    await page.goto(`/${PAGE}?chat=${customer.id}`)
    await expect(page.getByTestId('chat-labels')).toBeEnabled({ timeout: 20_000 })
    await page.getByTestId('chat-labels').click()
    await expect(page.getByTestId('chat-labels-panel')).toBeVisible()
    if (lang === 'en') {
      await page.getByTestId('label-new-name').fill('Talla M')
      await page.getByTestId('label-create').click()
      await expect(page.getByTestId('chat-label-names')).toContainText('Talla M')
      await expect.poll(() => graph.labelsOf(customer.id)).toContain('Talla M')
    }
    // The panel stands over the conversation; the header keeps its box on the screen.
    const panel = (await page.getByTestId('chat-labels-panel').boundingBox())!
    expect(panel.x).toBeGreaterThanOrEqual(0)
    expect(panel.x + panel.width).toBeLessThanOrEqual(360.5)
    await fits(page, `${lang}-chat-labels`)
  }
  // Taken off in the chat, off on the network.
  await page.getByRole('checkbox', { name: 'Talla M' }).click()
  await expect.poll(() => graph.labelsOf(customer.id)).not.toContain('Talla M')
  // Deleted after asking once: gone from the page on the network.
  await page
    .getByTestId('label-delete')
    .and(page.getByRole('button', { name: /Talla M/ }))
    .click()
  await page.getByTestId('label-delete-confirm').click()
  await expect(page.getByRole('checkbox', { name: 'Talla M' })).toHaveCount(0)
  await expect.poll(() => graph.pageLabels()).not.toContain('Talla M')
})

test('a label set in the Page Inbox shows in the list and filters it; selected rows are labelled together', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await login(page)
  const graph = await graphOf(baseURL!)
  const customers = await graph.customers()
  const pickup = await inboxLabel(baseURL!, customers[4]!.id, 'Pickup')
  await page.goto(`/${PAGE}`)
  const chip = page.locator(`[data-testid="label-filter-chip"][data-label-id="${pickup}"]`)
  await expect(chip).toContainText('Pickup', { timeout: 20_000 })
  await expect(chip).toContainText('1', { timeout: 20_000 })
  await chip.click()
  await expect(page).toHaveURL(new RegExp(`label=(%22)?${pickup}`))
  await expect(page.getByTestId('conversation-row')).toHaveCount(1)
  await expect(page.getByTestId('conversation-name')).toHaveText(customers[4]!.name)
  await fits(page, 'en-list-filter')
  // Open the chat and come Back: the filter is still on.
  await page.getByTestId('conversation-row').click()
  await expect(page.getByTestId('chat-labels')).toContainText('Pickup', { timeout: 20_000 })
  await page.goBack()
  await expect(page).toHaveURL(new RegExp(`label=(%22)?${pickup}`))
  await chip.click()
  await expect(page.getByTestId('conversation-row').nth(3)).toBeVisible()

  // Select two rows by thumb and put the label on both.
  await page.getByTestId('list-select').click()
  await page.getByTestId('conversation-row').nth(0).click()
  await page.getByTestId('conversation-row').nth(1).click()
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected')
  const bar = (await page.getByTestId('selection-bar').boundingBox())!
  expect(bar.y + bar.height).toBeLessThanOrEqual(740.5)
  expect(bar.y).toBeGreaterThan(740 / 2)
  await page.getByTestId('selection-label').click()
  await fits(page, 'en-selection')
  await page.locator(`[data-testid="label-option"][data-label-id="${pickup}"]`).click()
  await expect(chip).toContainText('3')
  await inUrdu(page)
  await page.reload()
  await page.getByTestId('list-select').click()
  await page.getByTestId('conversation-row').nth(0).click()
  await page.getByTestId('selection-label').click()
  await fits(page, 'ur-selection')
})

test('a bulk send to a label reaches exactly its members inside the window, each by their first name', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000)
  await login(page)
  const graph = await graphOf(baseURL!)
  const expected = await eligible(baseURL!, PAGE)
  const names = new Map((await graph.customers()).map((c) => [c.id, c.name]))
  // Two members inside the window, one outside it (if the page has one), nobody else.
  const members = [...expected.inside.slice(0, 2), ...expected.outside.slice(0, 1)]
  let label = ''
  for (const id of members) label = await inboxLabel(baseURL!, id, 'Promo')
  await openWizard(page, PAGE)
  const choice = page.locator(`[data-testid="bulk-page-label"][data-label-id="${label}"]`)
  await expect(choice).toContainText(String(members.length), { timeout: 30_000 })
  await choice.click()
  await expect(page.getByTestId('bulk-window')).toHaveText('2')
  await fits(page, 'en-wizard-labels')
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill('Hola ')
  await page.getByTestId('bulk-insert-name').click()
  await page.getByTestId('bulk-text').press('End')
  await page.getByTestId('bulk-text').pressSequentially(', tu pedido')
  await expect(page.getByTestId('bulk-text')).toHaveValue('Hola {first name}, tu pedido')
  const first = names.get(expected.inside[0]!)!.split(' ')[0]!
  await expect(page.getByTestId('bulk-preview-text')).toHaveText(/^Hola \S+, tu pedido$/)
  await expect(page.getByTestId('bulk-duration')).toBeVisible()
  await fits(page, 'en-wizard-compose')
  await page.getByTestId('bulk-send').click()
  await waitForCard(page, 'finished')
  const sent = (await sentLog(baseURL!)).filter((s) => s.text?.endsWith(', tu pedido'))
  expect(sent.map((s) => s.recipient_id).sort()).toEqual(expected.inside.slice(0, 2).sort())
  for (const s of sent) expect(s.text).toBe(`Hola ${names.get(s.recipient_id)!.split(' ')[0]}, tu pedido`)
  expect(sent.some((s) => s.text === `Hola ${first}, tu pedido`)).toBe(true)
  // Its stored message records the label chosen.
  const token = (await page.context().cookies()).find((c) => c.name === 'pagecast_session')!.value
  const list = (await (
    await fetch(`${baseURL}/api/v2/messages`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { data: { audience_labels: unknown }[] }
  expect(list.data.at(-1)!.audience_labels).toEqual({ match: 'any', labels: [{ id: label, name: 'Promo' }] })

  await inUrdu(page)
  await page.goto(`/${PAGE}?bulk=1`)
  await expect(choice).toBeVisible({ timeout: 30_000 })
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await fits(page, 'ur-wizard-labels')
})
