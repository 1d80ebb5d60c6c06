/**
 * Customer text on a phone in the owner's language: in Urdu a Latin snippet and bubble keep left-to-right
 * order and start at their own left edge; Khmer and Bengali snippets are cut at whole letters; direction
 * icons mirror in right to left; the install offer; counts in the language's own digits.
 */
import type { Page, Route } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { openInbox, pages } from './inbox-support.ts'

const SHOTS = 'tests/artifacts/screenshots'
const LATIN = 'We open at 9 am.'
const KHMER = 'សួស្តីបង! តើផលិតផលនេះនៅមានក្នុងស្តុកទេ? ខ្ញុំចង់ទិញពីរ'
const BENGALI = 'বিজ্ঞাপনের দামটা কত? আমি ক্ষমাপ্রার্থী, আগের বার্তাটি ভুল ছিল'

/**
 * Answers a Graph read with its body edited. A read the app gave up meanwhile (a newer one replaced it, the
 * page moved on) has no response left to edit: it is aborted, as the app already dropped it.
 */
async function rewrite<T>(route: Route, edit: (body: T) => void) {
  try {
    const res = await route.fetch()
    const body = (await res.json()) as T
    edit(body)
    await route.fulfill({ response: res, json: body })
  } catch {
    await route.abort().catch(() => undefined)
  }
}

/** The first three conversations' snippets and the newest message of each chat, as the network answers. */
async function serveTexts(page: Page) {
  await page.route(/\/sandbox\/graph\/[^?]*\/conversations\?/, (route) =>
    rewrite<{ data?: { snippet?: string }[] }>(route, (body) => {
      const texts = [LATIN, KHMER, BENGALI]
      body.data?.slice(0, 3).forEach((c, i) => (c.snippet = texts[i]))
    }),
  )
  await page.route(/\/sandbox\/graph\/[^?]*\/messages\?/, (route) => {
    if (route.request().method() !== 'GET') return route.fallback()
    return rewrite<{ data?: { message?: string }[] }>(route, (body) => {
      if (body.data?.[0]) body.data[0].message = LATIN
    })
  })
}

/** Where the first and last letters of an element's text are drawn, and its own box. */
function letterBoxes(el: Element) {
  const text = el.firstChild!
  const at = (start: number) => {
    const range = document.createRange()
    range.setStart(text, start)
    range.setEnd(text, start + 1)
    const r = range.getBoundingClientRect()
    return { left: r.left, right: r.right }
  }
  const own = el.getBoundingClientRect()
  const length = text.textContent!.length
  return {
    direction: getComputedStyle(el).direction,
    first: at(0),
    last: at(length - 1),
    own: { left: own.left, right: own.right },
  }
}

/**
 * Whether an element is drawn mirrored left to right, whichever CSS did it: `transform`, or the individual
 * `scale` and `rotate` properties Tailwind's scale and rotate utilities set.
 */
function mirrored(el: Element): boolean {
  const style = getComputedStyle(el)
  let m = new DOMMatrix(style.transform === 'none' ? undefined : style.transform)
  if (style.rotate && style.rotate !== 'none') m = m.rotate(parseFloat(style.rotate.replace(/^z\s+/, '')))
  if (style.scale && style.scale !== 'none') {
    const [x = 1, y = x] = style.scale.split(/\s+/).map(Number)
    m = m.scale(x, y)
  }
  return m.a < 0
}

test.describe('in Urdu on a 360 x 740 phone', () => {
  test.use({ locale: 'ur-PK', serviceWorkers: 'block', viewport: { width: 360, height: 740 } })

  test('a Latin snippet and bubble read left to right from their left edge; Khmer and Bengali are cut at whole letters', async ({
    page,
  }) => {
    await serveTexts(page)
    await loginAsDemo(page)
    await openInbox(page, pages.large)
    const snippets = page.getByTestId('conversation-snippet')
    await expect(snippets.first()).toHaveText(LATIN)

    const row = await snippets.first().evaluate(letterBoxes)
    expect(row.direction).toBe('ltr')
    // "W" is drawn left of the final "." (not ".We open at 9 am"), and the text starts at the left edge.
    expect(row.first.left).toBeLessThan(row.last.left)
    expect(Math.abs(row.first.left - row.own.left)).toBeLessThan(2)
    // The page itself is right to left: the name column's start is its right side.
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl')

    // Each cut is whole letters of the original (grapheme clusters), then an ellipsis.
    const cuts = await page.evaluate(
      ([khmer, bengali]) => {
        const shown = Array.from(document.querySelectorAll('[data-testid="conversation-snippet"]'))
          .slice(1, 3)
          .map((el) => el.textContent ?? '')
        const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        return shown.map((text, i) => {
          const original = [khmer!, bengali!][i]!
          const clusters = Array.from(seg.segment(original), (s) => s.segment)
          const kept = text.slice(0, -1)
          const prefixes = clusters.map((_, n) =>
            clusters
              .slice(0, n + 1)
              .join('')
              .trimEnd(),
          )
          return { text, endsWithEllipsis: text.endsWith('…'), wholeClusters: prefixes.includes(kept) }
        })
      },
      [KHMER, BENGALI],
    )
    for (const cut of cuts) {
      expect(cut.endsWithEllipsis, cut.text).toBe(true)
      expect(cut.wholeClusters, cut.text).toBe(true)
    }
    await page.screenshot({ path: `${SHOTS}/ur-text-direction-list-360.png` })

    await page.getByTestId('conversation-row').first().click()
    const bubble = page.getByTestId('chat-message').locator('p', { hasText: LATIN }).last()
    await expect(bubble).toBeVisible({ timeout: 20_000 })
    const drawn = await bubble.evaluate(letterBoxes)
    expect(drawn.direction).toBe('ltr')
    expect(drawn.first.left).toBeLessThan(drawn.last.left)
    expect(Math.abs(drawn.first.left - drawn.own.left)).toBeLessThan(2)
    await page.screenshot({ path: `${SHOTS}/ur-text-direction-chat-360.png` })
  })

  test('direction icons point the right-to-left way: back arrow and page chevron mirrored, back at the right', async ({
    page,
  }) => {
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    const chevron = page.getByTestId('page-card').first().locator('svg').last()
    expect(await chevron.evaluate(mirrored)).toBe(true)
    await openInbox(page, pages.large)
    await page.getByTestId('conversation-row').first().click()
    const header = page.getByTestId('chat-view').locator('header')
    const back = header.locator('button').first()
    await expect(back).toBeVisible({ timeout: 20_000 })
    expect(await back.locator('span').evaluate(mirrored)).toBe(true)
    const [b, h] = [await back.boundingBox(), await header.boundingBox()]
    // Back sits at the inline start, the right side in Urdu.
    expect(b!.x + b!.width / 2).toBeGreaterThan(h!.x + h!.width / 2)
  })
})

test.describe('in English', () => {
  test.use({ locale: 'en-US', serviceWorkers: 'block', viewport: { width: 360, height: 740 } })

  test('direction icons are not mirrored', async ({ page }) => {
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    const chevron = page.getByTestId('page-card').first().locator('svg').last()
    expect(await chevron.evaluate(mirrored)).toBe(false)
    await page.getByTestId('page-card').first().click()
    await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
    await page.getByTestId('conversation-row').first().click()
    const back = page.getByTestId('chat-view').locator('header button').first()
    await expect(back).toBeVisible({ timeout: 20_000 })
    expect(await back.locator('span').evaluate(mirrored)).toBe(false)
  })

  test('the install offer waits for a later visit, prompts from a tap, and stays dismissed', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { prompts: number; fireInstall: () => void }
      w.prompts = 0
      // A synthetic beforeinstallprompt, as Chromium fires it once the app is installable.
      w.fireInstall = () => {
        const event = new Event('beforeinstallprompt', { cancelable: true })
        Object.assign(event, {
          prompt: async () => void (w.prompts += 1),
          userChoice: Promise.resolve({ outcome: 'dismissed' }),
        })
        window.dispatchEvent(event)
      }
    })
    const fire = () => page.evaluate(() => (window as unknown as { fireInstall: () => void }).fireInstall())
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    await fire()
    // The first visit is for the app itself.
    await expect(page.getByTestId('install-offer')).toHaveCount(0)

    await page.reload()
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    await fire()
    const offer = page.getByTestId('install-offer')
    await expect(offer).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/en-install-offer-360.png` })
    await offer.getByTestId('install-app').click()
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompts: number }).prompts)).toBe(1)

    await fire()
    await offer.getByTestId('install-dismiss').click()
    await expect(offer).toHaveCount(0)
    await page.reload()
    await expect(page.getByTestId('page-card').first()).toBeVisible({ timeout: 20_000 })
    await fire()
    await expect(page.getByTestId('install-offer')).toHaveCount(0)
    // Still there when asked for: the account menu.
    await page.getByTestId('user-avatar').last().click()
    await expect(page.getByTestId('modal').getByTestId('install-app')).toBeVisible()
  })
})

test.describe('in Bengali', () => {
  test.use({ locale: 'bn-BD', serviceWorkers: 'block' })

  test('counts are written with Bengali digits', async ({ page }) => {
    await loginAsDemo(page)
    const badge = page.getByTestId('message-badge').first()
    await expect(badge).toBeVisible({ timeout: 20_000 })
    await expect(badge).toHaveText(/^[০-৯,]+$/)
  })
})

test.describe('in Spanish', () => {
  test.use({ locale: 'es-MX', serviceWorkers: 'block' })

  test('the subscription window names the trial in Spanish', async ({ page }) => {
    await page.route('**/api/v2/user/subscriptions/my-subscription', (r) =>
      r.fulfill({
        json: {
          current_period_end: '2030-01-01T00:00:00Z',
          cancel_at_period_end: false,
          product: 'trial',
          amount: 0,
          created: '2026-01-01T00:00:00Z',
        },
      }),
    )
    await loginAsDemo(page)
    await page.getByTestId('user-avatar').first().click()
    const details = page.getByTestId('my-subscription')
    await expect(details).toContainText('Prueba')
    await expect(details).not.toContainText('trial')
  })
})
