/**
 * The reply box as a page owner uses it: Enter sends at a desk, on a 360 px phone a picked photo shows a
 * preview that can be removed, a photo is made small before it is uploaded, an image-only reply goes, and
 * saved replies are created, picked, edited and deleted. Layout is asserted from element boxes.
 */
import sharp from 'sharp'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, pages, sentLog } from './inbox-support.ts'

const PHONE = { width: 360, height: 740 }

/** A 3000x2000 photo of noise: a detailed picture JPEG cannot make small (over 1 MB). */
async function bigPhoto(width = 3000, height = 2000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    raw[i] = seed >> 16
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer()
}

async function insideViewport(page: Page, locator: Locator): Promise<void> {
  const box = (await locator.boundingBox())!
  const width = page.viewportSize()!.width
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5)
}

async function openChatOnPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE)
  await openInbox(page, pages.small)
  await page.getByTestId('conversation-row').first().click()
  await expect(page.getByTestId('composer')).toBeVisible()
}

/** After a reload on a phone the open chat may come back, or the list: either way the chat is reopened. */
async function reopenChat(page: Page): Promise<void> {
  const composer = page.getByTestId('composer')
  const row = page.getByTestId('conversation-row').first()
  await expect(composer.or(row)).toBeVisible({ timeout: 20_000 })
  if (!(await composer.isVisible())) await row.click()
  await expect(composer).toBeVisible()
}

test.beforeEach(async ({ page }) => {
  await loginAsDemo(page)
})

test('at a desk, Enter sends and Shift+Enter starts a new line', async ({ page, baseURL }) => {
  await openInbox(page, pages.small)
  const text = page.getByTestId('reply-text')
  await text.click()
  await page.keyboard.type('Line one')
  await page.keyboard.press('Shift+Enter')
  await page.keyboard.type('Line two')
  await expect(text).toHaveValue('Line one\nLine two')
  await page.keyboard.press('Enter')
  await expect(text).toHaveValue('')
  await expect.poll(async () => (await sentLog(baseURL!)).map((s) => s.text)).toEqual(['Line one\nLine two'])
})

test('on a phone, a photo shows a preview, can be removed, and is sent alone, made small', async ({
  page,
  baseURL,
}) => {
  await openChatOnPhone(page)
  const photo = await bigPhoto()
  expect(photo.length).toBeGreaterThan(1024 * 1024)
  const input = page.getByTestId('reply-image')
  await input.setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo })
  const preview = page.getByTestId('reply-image-preview')
  await expect(preview).toBeVisible()
  await expect
    .poll(() =>
      page.getByTestId('reply-image-preview-img').evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(3000)
  await insideViewport(page, page.getByTestId('composer'))
  await insideViewport(page, preview)
  await insideViewport(page, page.getByTestId('reply-send'))
  await insideViewport(page, page.getByTestId('reply-image-remove'))

  await page.getByTestId('reply-image-remove').click()
  await expect(preview).toHaveCount(0)

  await input.setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo })
  await expect(preview).toBeVisible()
  const upload = page.waitForRequest((r) => r.url().endsWith('/api/v2/upload') && r.method() === 'POST')
  await page.getByTestId('reply-send').click()
  const request = await upload
  const uploaded = Number((await request.allHeaders())['content-length'] ?? request.postDataBuffer()?.length)
  // The multipart body holds the compressed photo: well under the 1 MB target plus the form's few bytes.
  test.info().annotations.push({ type: 'upload size', description: `${photo.length} -> ${uploaded} bytes` })
  expect(uploaded).toBeGreaterThan(10_000)
  expect(uploaded).toBeLessThan(1024 * 1024 + 4096)
  await expect(preview).toHaveCount(0)
  await expect
    .poll(async () => (await sentLog(baseURL!)).map((s) => (s.attachment ? 'image' : s.text)))
    .toEqual(['image'])
  await expect(page.getByTestId('chat-image').last()).toBeVisible()
})

test('on a slow connection, a photo going up shows how much of it is sent and its size', async ({
  page,
  baseURL,
}) => {
  await openChatOnPhone(page)
  // About 600 kB of photo over a 1 Mbit/s uplink: a few seconds of upload, reported as it goes.
  const photo = await bigPhoto(900, 600)
  await page
    .getByTestId('reply-image')
    .setInputFiles({ name: 'IMG_2042.jpg', mimeType: 'image/jpeg', buffer: photo })
  await expect(page.getByTestId('reply-image-preview')).toBeVisible()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 100,
    downloadThroughput: 125_000,
    uploadThroughput: 125_000,
  })
  const upload = page.waitForRequest((r) => r.url().endsWith('/api/v2/upload') && r.method() === 'POST')
  await page.getByTestId('reply-send').click()
  const progress = page.getByTestId('reply-image-progress')
  // Part of the photo sent, not all of it: the bar moves, and the words say the size sent of the size to send.
  await expect
    .poll(
      () =>
        progress
          .locator('progress')
          .evaluate((bar: HTMLProgressElement) => bar.value > 0 && bar.value < bar.max)
          .catch(() => false),
      { intervals: [50] },
    )
    .toBe(true)
  await upload
  // The size said is that of the body going up: the photo made small, in its form.
  const uploaded = await progress.locator('progress').evaluate((bar: HTMLProgressElement) => bar.max)
  expect(uploaded).toBeGreaterThan(50_000)
  expect(uploaded).toBeLessThan(photo.length + 4096)
  const total = `${Math.round(uploaded / 1000)} kB`
  await expect(progress).toContainText(new RegExp(`Sending the photo: \\d+ kB of ${total}`))
  await page.screenshot({ path: 'tests/artifacts/chat-upload-progress.png' })
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  })
  await expect(progress).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByTestId('reply-image-preview')).toHaveCount(0)
  await expect
    .poll(async () => (await sentLog(baseURL!)).map((s) => (s.attachment ? 'image' : s.text)))
    .toEqual(['image'])
})

test('on a phone, a saved reply is created, picked, edited and deleted', async ({ page }) => {
  await openChatOnPhone(page)
  const open = page.getByTestId('saved-replies-open')
  const sheet = page.getByTestId('saved-replies')
  await open.click()
  await expect(sheet).toBeVisible()
  await insideViewport(page, sheet)
  await expect(page.getByTestId('saved-replies-empty')).toBeVisible()

  await page.getByTestId('saved-reply-add').click()
  await page.getByTestId('saved-reply-title').fill('Hours')
  await page.getByTestId('saved-reply-text').fill('We open at 9 am.')
  await page.getByTestId('saved-reply-save').click()
  const item = page.getByTestId('saved-reply')
  await expect(item).toHaveCount(1)
  await expect(item).toContainText('We open at 9 am.')
  // The open sheet is in the address: the phone's Back closes it and stays in the chat.
  const chat = page.url()
  await expect(page).toHaveURL(/[?&]modal=saved-replies/)
  await page.goBack()
  await expect(sheet).toHaveCount(0)
  expect(page.url()).toBe(chat.replace(/[?&]modal=saved-replies/, ''))
  await expect(page.getByTestId('composer')).toBeVisible()
  // Kept on the server for the user, not in this tab: still there after a reload.
  await page.reload()
  await reopenChat(page)
  await open.click()
  await expect(item).toContainText('We open at 9 am.')

  await page.getByTestId('saved-reply-pick').click()
  await expect(sheet).toHaveCount(0)
  await expect(page.getByTestId('reply-text')).toHaveValue('We open at 9 am.')

  await open.click()
  await page.getByTestId('saved-replies-search').fill('nothing like this')
  await expect(page.getByTestId('saved-replies-empty')).toBeVisible()
  await page.getByTestId('saved-replies-search').fill('hours')
  await expect(item).toHaveCount(1)
  await page.getByTestId('saved-reply-edit').click()
  await expect(page.getByTestId('saved-reply-text')).toHaveValue('We open at 9 am.')
  await page.getByTestId('saved-reply-text').fill('We open at 8 am.')
  await page.getByTestId('saved-reply-save').click()
  await expect(item).toContainText('We open at 8 am.')

  await page.getByTestId('saved-reply-delete').click()
  await page.getByTestId('saved-reply-delete-yes').click()
  await expect(item).toHaveCount(0)
})
