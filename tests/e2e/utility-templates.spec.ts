/**
 * The page's utility templates, with the sandbox as the network: a template the owner writes is in review,
 * then approved live by the message_template_status_update webhook (no reload); a body offered as a utility
 * template that reads as a promotion is rejected, and the list says why in the owner's language (Spanish
 * here) with the network's reason beside it.
 */
import type { Page } from '@playwright/test'
import { pressContinue } from './support/dialog.ts'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

test.use({ locale: 'es-MX' })

async function write(page: Page, name: string, body: string) {
  const sheet = page.getByTestId('templates-sheet')
  await sheet.getByTestId('template-new').click()
  await sheet.getByTestId('template-name').fill(name)
  await sheet.getByTestId('template-body').fill(body)
  await sheet.getByTestId('template-save').click()
  await expect(sheet.getByTestId(`template-${name}`)).toBeVisible({ timeout: 20_000 })
}

test('a written template is approved live; a promotional one is refused with the reason', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  await loginAsDemo(page)
  await page.goto(`/${pages.small}`)
  const entry = page.getByTestId('page-sidebar').getByTestId('templates-entry')
  await expect(entry).toBeVisible({ timeout: 30_000 })
  await entry.click()
  const sheet = page.getByTestId('templates-sheet')
  await expect(sheet).toBeVisible()
  const popupPromise = page.waitForEvent('popup')
  await sheet.getByRole('button', { name: 'Continuar' }).click()
  const popup = await popupPromise
  await popup.waitForLoadState('domcontentloaded')
  await pressContinue(popup)
  await expect(sheet.getByTestId('template-new')).toBeVisible({ timeout: 20_000 })

  await write(page, 'class_reminder', 'Hola {{1}}, tu clase de pasteles es el {{2}}.')
  const reminder = sheet.getByTestId('template-class_reminder').getByTestId('template-status')
  // In review, then approved by the webhook the server passes on (the list is not reloaded by hand).
  await expect(reminder).toHaveAttribute('data-status', 'APPROVED', { timeout: 20_000 })
  await expect(reminder).toHaveText('Aprobada')

  await write(page, 'big_sale', 'Hola {{1}}, ¡20% de descuento en todo este fin de semana!')
  const sale = sheet.getByTestId('template-big_sale')
  await expect(sale.getByTestId('template-status')).toHaveAttribute('data-status', 'REJECTED', {
    timeout: 20_000,
  })
  const why = sale.getByTestId('template-rejection')
  await expect(why).toContainText('Facebook lo leyó como una promoción')
  await expect(why.locator('bdi')).toHaveText('INCORRECT_CATEGORY')
})
