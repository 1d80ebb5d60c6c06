/** Urdu (right to left, Nastaliq): names keep their start visible and stacked lines never overlap. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

test.use({ locale: 'ur-PK' })

test('the page sidebar shows the start of the page name, cut (if at all) at its end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await loginAsDemo(page)
  await page.goto(`/${pages.large}`)
  const name = page.getByTestId('page-sidebar').getByTestId('page-name')
  await expect(name).toHaveText('Sunrise Market', { timeout: 20_000 })
  const boxes = await name.evaluate((el) => {
    const text = el.firstChild ?? el
    const range = document.createRange()
    range.setStart(text, 0)
    range.setEnd(text, 1)
    const first = range.getBoundingClientRect()
    const own = el.getBoundingClientRect()
    return { first: { left: first.left, right: first.right }, own: { left: own.left, right: own.right } }
  })
  // The first letter lies inside the name's visible box.
  expect(boxes.first.left).toBeGreaterThanOrEqual(boxes.own.left - 0.5)
  expect(boxes.first.right).toBeLessThanOrEqual(boxes.own.right + 0.5)
})

test('a retired tag’s name and reason do not overlap in the content step', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await loginAsDemo(page)
  await page.goto(`/${pages.small}?bulk=1`)
  await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
  const step2 = page.getByTestId('bulk-step-2').getByRole('button').first()
  await expect(step2).toBeEnabled({ timeout: 20_000 })
  await step2.click()
  const option = page.locator('label', { has: page.locator('input[value="CONFIRMED_EVENT_UPDATE"]') })
  await expect(option).toBeVisible()
  // Nastaliq reaches far above and below its text: a line shorter than the font's natural height lets the
  // glyphs of stacked lines overlap. Each line of the option is at least as tall as the font needs.
  const lines = await option.evaluate((label) => {
    const outer = label.querySelector(':scope > span') as HTMLElement
    const reason = outer.querySelector('span') as HTMLElement
    const measure = (el: HTMLElement) => {
      const probe = document.createElement('span')
      probe.textContent = el.textContent
      probe.style.cssText = 'line-height:normal;display:inline-block;white-space:nowrap;position:absolute'
      el.append(probe)
      const natural = probe.getBoundingClientRect().height
      probe.remove()
      const lineHeight = getComputedStyle(el).lineHeight
      // `normal` is the font's own height, by definition.
      return { line: lineHeight === 'normal' ? natural : parseFloat(lineHeight), natural }
    }
    return { name: measure(outer), reason: measure(reason) }
  })
  expect(lines.name.line).toBeGreaterThanOrEqual(lines.name.natural - 0.5)
  expect(lines.reason.line).toBeGreaterThanOrEqual(lines.reason.natural - 0.5)
})
