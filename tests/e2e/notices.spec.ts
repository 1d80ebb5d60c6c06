/**
 * Notices on a phone (docs/product-rules.md#constants-and-limits, #error-catalogue): top-centre below the
 * header, clear of the chat's composer and the wizard's Send; a rejected message stays until closed, others
 * close by themselves, at most five at once; a lost connection is said once in the owner's language; and a
 * stack of modals opened from the address is drawn, focused and closed top first.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, pages } from './inbox-support.ts'
import { refuseReplies } from './support/sandbox.ts'
import { includeWaiting } from './bulk-support.ts'

const PHONE = { width: 360, height: 740 }
const SHOTS = 'tests/artifacts/notices'

// page.route cannot see requests a service worker answers.
test.use({ serviceWorkers: 'block', viewport: PHONE })

type Box = { x: number; y: number; width: number; height: number }

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox()
  expect(b, 'the element is drawn').not.toBeNull()
  return b!
}

/** The notice stands top-centre, under the app's header, and covers none of `clear`. */
async function expectTopCentre(page: Page, note: Locator, clear: Locator[]): Promise<void> {
  const n = await box(note)
  const header = await box(page.locator('header').first())
  expect(n.y).toBeGreaterThanOrEqual(header.y + header.height - 1)
  expect(n.y).toBeLessThan(PHONE.height / 3)
  expect(Math.abs(n.x + n.width / 2 - PHONE.width / 2)).toBeLessThanOrEqual(2)
  for (const other of clear) expect(intersects(n, await box(other))).toBe(false)
}

for (const { locale, lang } of [
  { locale: 'en-US', lang: 'en' },
  { locale: 'ur-PK', lang: 'ur' },
]) {
  test.describe(`in ${lang} on a phone`, () => {
    test.use({ locale })

    test('a rejected reply stands top-centre clear of the composer, stays past 9 s and closes with its button', async ({
      page,
    }) => {
      await loginAsDemo(page)
      await refuseReplies(page)
      await openInbox(page)
      await page.getByTestId('conversation-row').first().click()
      await page.getByTestId('reply-text').fill('Hello')
      await page.getByTestId('reply-send').click()
      const note = page.getByTestId('notification')
      await expect(note).toHaveCount(1)
      await expect(note).toHaveAttribute('data-kind', 'error')
      await expectTopCentre(page, note, [page.getByTestId('composer'), page.getByTestId('reply-send')])
      await page.screenshot({ path: `${SHOTS}/${lang}-rejected-reply.png` })
      // It stays until closed: past the 4 s of the others, and past the 8 s warnings used to get.
      await page.waitForTimeout(9_000)
      await expect(note).toHaveCount(1)
      const close = note.getByRole('button').last()
      const c = await box(close)
      expect(c.width).toBeGreaterThanOrEqual(44)
      expect(c.height).toBeGreaterThanOrEqual(44)
      await close.click()
      await expect(note).toHaveCount(0)
    })

    test("the wizard's warning stands clear of its Send button", async ({ page }) => {
      await loginAsDemo(page)
      await page.goto(`/${pages.small}?bulk=1`)
      // Loaded: the line starts with the count (while loading it starts with words), in any language.
      await expect(page.getByTestId('bulk-loaded')).toHaveText(/^[\d,]+ /, { timeout: 20_000 })
      await includeWaiting(page)
      await page.getByTestId('bulk-step-2').getByRole('button').first().click()
      await page.getByTestId('bulk-step-3').getByRole('button').first().click()
      const send = page.getByTestId('bulk-send')
      await send.scrollIntoViewIfNeeded()
      await send.click()
      const note = page.getByTestId('notification')
      await expect(note).toHaveCount(1)
      await expect(note).toHaveAttribute('data-kind', 'warning')
      await expectTopCentre(page, note, [send])
      await page.screenshot({ path: `${SHOTS}/${lang}-wizard-warning.png` })
      // An ordinary notice closes by itself after 4 s.
      await expect(note).toHaveCount(0, { timeout: 6_000 })
    })

    test('six quick notices show at most five, all below the header', async ({ page }) => {
      await loginAsDemo(page)
      const errors = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}`, [`Problem ${i}`]]))
      await page.route('**/api/v2/user/subscriptions/my-subscription', (r) =>
        r.fulfill({ status: 422, json: { message: 'invalid', errors } }),
      )
      await page.getByTestId('user-avatar').first().click()
      const notes = page.getByTestId('notification')
      // The newest stands first.
      await expect(notes.first()).toContainText('Problem 5')
      await expect(notes).toHaveCount(5)
      await expect(notes.filter({ hasText: 'Problem 0' })).toHaveCount(0)
      await page.screenshot({ path: `${SHOTS}/${lang}-five-notices.png` })
      const stack = await box(page.getByTestId('notification-stack'))
      expect(stack.y + stack.height).toBeLessThan(PHONE.height - 150)
    })
  })
}

test.describe('in Spanish, with the server out of reach', () => {
  test.use({ locale: 'es-MX' })

  test('the failed calls say it once, in Spanish, and never as an internal error', async ({ page }) => {
    await loginAsDemo(page)
    // The device believes it is online, but no call to the server gets an answer (a network without
    // internet, the server down).
    await page.route('**/api/v2/**', (r) => r.abort('internetdisconnected'))
    await page.reload()
    await expect(page.getByTestId('app-layout')).toBeVisible({ timeout: 20_000 })
    // More calls fail: the subscription, read when the avatar is pressed, and again on focus.
    await page.getByTestId('user-avatar').first().click()
    await expect(page.getByTestId('modal')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('modal')).toHaveCount(0)
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await page.waitForTimeout(1_500)
    await page.screenshot({ path: `${SHOTS}/es-server-out-of-reach.png` })
    // Read at once, not retried: a waiting assertion would let a notice that closes by itself pass.
    const texts = await page.getByTestId('notification').allTextContents()
    expect(texts).toEqual([
      'Sin conexiónPagecast no pudo conectarse con su servidor. Revisa tu internet e inténtalo de nuevo.',
    ])
    const body = (await page.locator('body').textContent()) ?? ''
    for (const word of ['Failed to fetch', 'Internal', 'Error interno']) expect(body).not.toContain(word)
  })
})

test('a stack of modals from the address draws the top one over its parent after a reload, and Escape closes it first', async ({
  page,
}) => {
  await loginAsDemo(page)
  await page.goto('/?modal=user.addons')
  await page.reload()
  const modals = page.getByTestId('modal')
  await expect(modals).toHaveCount(2, { timeout: 20_000 })
  const addons = modals.filter({ hasText: 'Buy more messages' })
  const user = modals.filter({ hasText: 'My subscription' })
  await expect(addons.getByRole('heading')).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/modal-stack-after-reload.png` })
  // What is drawn at the add-ons modal's heading is the add-ons modal, not the subscription under it.
  const heading = await box(addons.getByRole('heading'))
  const drawn = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid="modal"]')?.textContent ?? '',
    [heading.x + heading.width / 2, heading.y + heading.height / 2],
  )
  expect(drawn).toContain('Buy more messages')
  expect(
    await page.evaluate(() => {
      const active = document.activeElement
      const dialogs = [...document.querySelectorAll('[role="dialog"]')]
      return dialogs.findIndex((d) => d.contains(active)) === dialogs.length - 1
    }),
  ).toBe(true)
  await page.keyboard.press('Escape')
  await expect(addons).toHaveCount(0)
  await expect(user).toBeVisible()
  await expect(page).toHaveURL(/modal=user$/)
  await page.keyboard.press('Escape')
  await expect(modals).toHaveCount(0)
})
