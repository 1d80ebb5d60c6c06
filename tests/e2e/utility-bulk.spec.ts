/**
 * An event reminder to a label by utility template from the bulk wizard, with the sandbox as the network: the
 * owner writes a template, the status webhook approves it live, and the wizard's step 2 sends it to every
 * member of the label, those outside the 24-hour window too. The sandbox records one utility message per
 * member, paced, each with their own first name and the values typed once. At 360 x 740 every control of the
 * new step is at least 44 x 44 and no text is cut, in English and in Urdu (right to left).
 * Screenshots in tests/artifacts/utility/.
 */
import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import {
  bulkTest,
  eligible,
  expect,
  includeWaiting,
  login,
  openWizard,
  pages,
  waitForCard,
} from './bulk-support.ts'
import { pressContinue } from './support/dialog.ts'
import { sandboxUserToken } from './support/login.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

const test = bulkTest()
const PAGE = pages.small
const SHOTS = 'tests/artifacts/utility'
const GRAPH = 'sandbox/graph/v25.0'
const BODY = 'Hi {{1}}, the cake workshop is on {{2}} at {{3}}.'
/** The pacing of the bulk tests' stack (PACING_SCALE 0.02) applied to the 800 ms between two sends. */
const MIN_GAP_MS = 800 * 0.02

interface UtilitySend {
  recipient_id: string
  template_name: string
  parameters: string[]
  text: string
  at: string
}

/** Each customer of the page by id with their name, as the Graph gives them. */
async function names(baseURL: string): Promise<Map<string, string>> {
  const user = await sandboxUserToken(baseURL)
  const accounts = (await (
    await fetch(`${baseURL}/${GRAPH}/me/accounts?fields=id,access_token&access_token=${user}`)
  ).json()) as { data: { id: string; access_token: string }[] }
  const token = accounts.data.find((a) => a.id === PAGE)!.access_token
  const convs = (await (
    await fetch(
      `${baseURL}/${GRAPH}/${PAGE}/conversations?fields=participants&limit=100&access_token=${token}`,
    )
  ).json()) as { data: { participants: { data: { id: string; name: string }[] } }[] }
  return new Map(
    convs.data.map((c) => c.participants.data.find((p) => p.id !== PAGE)!).map((p) => [p.id, p.name]),
  )
}

/** Sets a label on a customer as the Page Inbox would; answers the label's id. */
async function inboxLabel(baseURL: string, customerId: string, label: string): Promise<string> {
  const res = await fetch(`${baseURL}/sandbox/labels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: PAGE, customer_id: customerId, label }),
  })
  return ((await res.json()) as { id: string }).id
}

async function utilitySends(baseURL: string): Promise<UtilitySend[]> {
  const res = await fetch(`${baseURL}/sandbox/utility/sends?page_id=${PAGE}`)
  return ((await res.json()) as { data: UtilitySend[] }).data
}

/** The network's dialog for page_utility_messaging, when the login does not hold it yet. */
async function allowUpdates(page: Page, button: ReturnType<Page['getByTestId']>) {
  const popupPromise = page.waitForEvent('popup')
  await button.click()
  const popup = await popupPromise
  await popup.waitForLoadState('domcontentloaded')
  await pressContinue(popup)
}

/** No control under 44 x 44 and no text cut, on the screen as it is. */
async function fits(page: Page, screen: string) {
  expect(await smallTargets(page), `${screen}: small targets`).toEqual([])
  expect(await misfits(page), `${screen}: text that does not fit`).toEqual([])
  await page.screenshot({ path: `${SHOTS}/${screen}.png`, fullPage: true })
}

/** Steps 1 and 2 of the wizard at the phone's size: the label, then the template with its values. */
async function chooseTemplate(page: Page, label: string, members?: number) {
  if (members !== undefined) await openWizard(page, PAGE)
  else {
    // In another language: the wizard open with its audience loaded, whatever its words.
    await page.goto(`/${PAGE}?bulk=1`)
    await expect(page.getByTestId('bulk-loaded')).toHaveText(/^[\d,]+ /, { timeout: 20_000 })
  }
  const choice = page.locator(`[data-testid="bulk-page-label"][data-label-id="${label}"]`)
  if (members === undefined) await expect(choice).toBeVisible({ timeout: 30_000 })
  else await expect(choice).toContainText(String(members), { timeout: 30_000 })
  await choice.click()
  await includeWaiting(page)
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-utility-option').check()
  const wizard = page.getByTestId('bulk-wizard')
  const allow = wizard.getByTestId('bulk-utility-allow')
  const template = wizard.getByTestId('page-template-cake_workshop')
  await expect(allow.or(template)).toBeVisible({ timeout: 20_000 })
  if (await allow.isVisible()) await allowUpdates(page, allow)
  await expect(template).toBeVisible({ timeout: 20_000 })
  await template.click()
  await expect(wizard.getByTestId('template-param-1')).toHaveValue('{first name}')
  await wizard.getByTestId('template-param-2').fill('Saturday 10:00')
  await wizard.getByTestId('template-param-3').fill('Calle Sol 5')
}

test('an event reminder by utility template reaches every member of a label once, outside the window too', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000)
  mkdirSync(SHOTS, { recursive: true })
  await login(page)
  // Two members inside the window and two outside it, labelled as the Page Inbox would before the page is opened.
  const reach = await eligible(baseURL!, PAGE)
  expect(reach.outside.length).toBeGreaterThanOrEqual(2)
  const members = [...reach.inside.slice(0, 2), ...reach.outside.slice(0, 2)]
  let label = ''
  for (const id of members) label = await inboxLabel(baseURL!, id, 'Taller')
  const named = await names(baseURL!)
  const before = (await utilitySends(baseURL!)).length

  // The owner writes the template; the status webhook approves it while the list is open.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/${PAGE}`)
  const entry = page.getByTestId('page-sidebar').getByTestId('templates-entry')
  await expect(entry).toBeVisible({ timeout: 30_000 })
  await entry.click()
  const sheet = page.getByTestId('templates-sheet')
  await expect(sheet).toBeVisible()
  await allowUpdates(page, sheet.getByRole('button', { name: 'Continue' }))
  await sheet.getByTestId('template-new').click()
  await sheet.getByTestId('template-name').fill('cake_workshop')
  await sheet.getByTestId('template-body').fill(BODY)
  await sheet.getByTestId('template-save').click()
  await expect(sheet.getByTestId('template-cake_workshop').getByTestId('template-status')).toHaveAttribute(
    'data-status',
    'APPROVED',
    { timeout: 20_000 },
  )
  await page.keyboard.press('Escape')

  await page.setViewportSize({ width: 360, height: 740 })
  await chooseTemplate(page, label, members.length)
  const wizard = page.getByTestId('bulk-wizard')
  await expect(wizard.getByTestId('bulk-utility-reach')).toHaveText(
    `${members.length} chosen customers can get this update: 2 who wrote in the last 23 hours and 2 outside that window.`,
  )
  await expect(wizard.getByTestId('bulk-groups-utility')).toContainText(`all ${members.length}`)
  // The preview is the first recipient's message.
  await expect(wizard.getByTestId('template-preview')).toHaveText(
    /^Hi \S+, the cake workshop is on Saturday 10:00 at Calle Sol 5\.$/,
  )
  await fits(page, 'en-wizard-template')
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await expect(page.getByTestId('bulk-utility-note')).toBeVisible()
  await expect(page.getByTestId('bulk-send')).toHaveText(`Send to ${members.length} recipients`)
  await fits(page, 'en-wizard-send')
  await page.getByTestId('bulk-send').click()
  await waitForCard(page, 'finished')

  const sent = (await utilitySends(baseURL!)).slice(before).filter((s) => s.template_name === 'cake_workshop')
  expect(sent.map((s) => s.recipient_id).sort()).toEqual([...members].sort())
  for (const s of sent) {
    const first = named.get(s.recipient_id)!.split(/\s+/)[0]!
    expect(s.parameters).toEqual([first, 'Saturday 10:00', 'Calle Sol 5'])
    expect(s.text).toBe(`Hi ${first}, the cake workshop is on Saturday 10:00 at Calle Sol 5.`)
  }
  const times = sent.map((s) => Date.parse(s.at)).sort((a, b) => a - b)
  for (const [i, t] of times.slice(1).entries()) expect(t - times[i]!).toBeGreaterThanOrEqual(MIN_GAP_MS)

  // The same step in Urdu, right to left.
  await page.evaluate(() => localStorage.setItem('pagecast-locale', 'ur'))
  await chooseTemplate(page, label)
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(wizard.getByTestId('template-preview')).toContainText('Calle Sol 5')
  await fits(page, 'ur-wizard-template')
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await fits(page, 'ur-wizard-send')
})
