/** The server's refusals carry codes; the app says them once, in the user's language. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages, refuseReplies } from './support/sandbox.ts'

test.use({ locale: 'es-MX' })

test('in Spanish a page whose trial was used shows one Spanish notice and no English one', async ({
  page,
}) => {
  await loginAsDemo(page)
  await page.goto(`/${pages.trialUsed}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  const notes = page.getByTestId('notification')
  await expect(notes.filter({ hasText: 'Esta página ya se usó para una prueba' })).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Comprar una suscripción' })).toBeVisible()
  // Read at once, not retried: a notice that closes by itself would pass a waiting assertion.
  await page.waitForTimeout(1_000)
  const texts = await notes.allTextContents()
  expect(texts).toHaveLength(1)
  expect(texts[0]).not.toContain('This page has already been used for a trial')
})

test('in Spanish a banned page is refused in Spanish', async ({ page }) => {
  await loginAsDemo(page)
  await page.goto(`/${pages.banned}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  const notes = page.getByTestId('notification')
  await expect(notes).toContainText('Esta página fue bloqueada. Ponte en contacto con soporte.')
  await page.waitForTimeout(1_000)
  const texts = await notes.allTextContents()
  expect(texts).toEqual(['AdvertenciaEsta página fue bloqueada. Ponte en contacto con soporte.'])
})

test.describe('a reply Facebook refuses, in Urdu on a phone', () => {
  test.use({ locale: 'ur-PK', viewport: { width: 360, height: 740 } })

  test("is said in Urdu with Facebook's own text set apart, below the header, and stays until closed", async ({
    page,
  }) => {
    await loginAsDemo(page)
    await refuseReplies(page)
    await page.goto(`/${pages.large}`)
    await page.getByTestId('conversation-row').first().click({ timeout: 20_000 })
    await page.getByTestId('reply-text').fill('Hello')
    await page.getByTestId('reply-send').click()
    const note = page.getByTestId('notification')
    await expect(note).toContainText('یہ شخص ابھی آپ کے پیج سے پیغام نہیں لے سکتا')
    // Facebook's English text is beside the Urdu words, isolated, never in their place.
    const detail = note.getByTestId('notification-detail').locator('bdi')
    await expect(detail).toHaveText("(#551) This person isn't available right now.")
    await page.screenshot({ path: 'tests/artifacts/text-fit/ur-refused-reply.png' })
    const [noteBox, headerBox] = [
      await note.boundingBox(),
      await page.locator('header').first().boundingBox(),
    ]
    // The app's header stays free: the notice stands below it, top-centre.
    expect(noteBox!.y).toBeGreaterThanOrEqual(headerBox!.y + headerBox!.height - 1)
    await note.getByRole('button').last().click()
    await expect(note).toHaveCount(0)
  })
})
