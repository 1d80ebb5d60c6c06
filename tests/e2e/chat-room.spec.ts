/**
 * A chat on a phone keeps at least half of the visible screen for the conversation: upright (360 x 740),
 * sideways (740 x 360) and with the on-screen keyboard open (the visual viewport shrunk to 360 x 400, which is
 * what the app sees of a keyboard), with an image attached, offline, in Spanish, in Urdu and in Bengali.
 * Screenshots go to tests/artifacts/chat-room/.
 */
import { mkdirSync } from 'node:fs'
import { type Page, expect } from '@playwright/test'
import { box } from './journey-support.ts'
import { test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

const SHOTS = 'tests/artifacts/chat-room'
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

const sizes = [
  { name: 'upright', width: 360, height: 740 },
  { name: 'sideways', width: 740, height: 360 },
  { name: 'keyboard', width: 360, height: 400 },
] as const

/** The history's share of the visible screen, and the reply box and Send still on it. */
async function room(page: Page): Promise<number> {
  const history = await box(page.getByTestId('chat-history'))
  const visible = await page.evaluate(() => window.visualViewport?.height ?? window.innerHeight)
  const send = await box(page.getByTestId('reply-send'))
  const reply = await box(page.getByTestId('reply-text'))
  expect(send.y + send.height, 'Send is on screen').toBeLessThanOrEqual(visible + 0.5)
  expect(reply.y + reply.height, 'the reply box is on screen').toBeLessThanOrEqual(visible + 0.5)
  const width = await page.evaluate(() => document.documentElement.clientWidth)
  expect(send.x + send.width, 'Send is on screen').toBeLessThanOrEqual(width + 0.5)
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    'nothing sideways',
  ).toBeLessThanOrEqual(width)
  const top = Math.max(0, history.y)
  const bottom = Math.min(visible, history.y + history.height)
  return (bottom - top) / visible
}

async function openChat(page: Page): Promise<void> {
  await page.goto(`/${pages.small}`)
  await page.getByTestId('conversation-row').first().click()
  await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
}

test('a chat on a phone keeps half the visible screen for the conversation', async ({ page, context }) => {
  test.setTimeout(180_000)
  mkdirSync(SHOTS, { recursive: true })
  await loginAsDemo(page)
  const found: string[] = []
  const measure = async (what: string) => {
    for (const size of sizes) {
      await page.setViewportSize({ width: size.width, height: size.height })
      await page.waitForTimeout(300)
      await page.screenshot({ path: `${SHOTS}/${what}-${size.name}.png` })
      const share = await room(page)
      found.push(`${what} ${size.name}: ${Math.round(share * 100)}%`)
      expect
        .soft(share, `${what}, ${size.name}: the history's share of the screen`)
        .toBeGreaterThanOrEqual(0.5)
    }
    await page.setViewportSize({ width: 360, height: 740 })
  }

  await openChat(page)
  await measure('en')
  await page
    .getByTestId('reply-image')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PHOTO })
  await expect(page.getByTestId('reply-image-preview')).toBeVisible()
  await measure('en-image')
  await context.setOffline(true)
  await expect(page.getByTestId('composer-offline')).toBeVisible()
  await measure('en-image-offline')
  await context.setOffline(false)

  for (const locale of ['es', 'ur', 'bn']) {
    await page.evaluate((code) => localStorage.setItem('pagecast-locale', code), locale)
    await openChat(page)
    await expect(page.locator('html')).toHaveAttribute('lang', locale)
    await measure(locale)
  }
  test.info().annotations.push({ type: 'history share', description: found.join('\n') })
  console.log(found.join('\n'))
})
