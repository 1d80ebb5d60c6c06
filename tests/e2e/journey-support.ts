/**
 * The phone journey's frame: one walk's page, context and viewport, its numbered screenshots in
 * tests/artifacts/phone-journey/, and the layout checks every step may make from element boxes.
 */
import { mkdirSync } from 'node:fs'
import { type BrowserContext, type Locator, type Page, expect, test } from '@playwright/test'

export const SHOTS = 'tests/artifacts/phone-journey'

export interface Journey {
  page: Page
  context: BrowserContext
  baseURL: string
  /** Names the screenshots of this walk: `portrait`, `landscape`, `desktop`. */
  run: string
  width: number
  height: number
  /** The address of the chat opened by `openChat`. */
  chatUrl?: string
  /** The conversation a customer wrote to live (`unreadRaisedLiveThenCleared`) and what they wrote. */
  live?: { conversationId: string; text: string }
  shots: number
}

export async function shot(j: Journey, name: string): Promise<void> {
  j.shots += 1
  await j.page.screenshot({ path: `${SHOTS}/${j.run}-${String(j.shots).padStart(2, '0')}-${name}.png` })
}

export type Box = { x: number; y: number; width: number; height: number }

export async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox()
  expect(b, 'the element has a layout box').toBeTruthy()
  return b!
}

export function intersection(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x)
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y)
  return { x, y, width, height }
}

/**
 * The page keeps its room beside the bulk cards: the content column at least 300 px wide (or the whole
 * width on a narrower screen), the cards' panel never over it, and a usable height of page left.
 */
export async function pageKeepsItsRoom(j: Journey): Promise<void> {
  const content = await box(j.page.getByTestId('layout-content'))
  const main = await box(j.page.locator('#main'))
  const panel = await box(j.page.getByTestId('bulk-panel'))
  expect(content.width).toBeGreaterThanOrEqual(Math.min(300, j.width - 60))
  expect(main.width).toBeGreaterThanOrEqual(Math.min(300, j.width - 60))
  const covered = intersection(main, panel)
  expect(covered.width * covered.height, 'the cards cover none of the page').toBeLessThanOrEqual(1)
  expect(main.height).toBeGreaterThanOrEqual(Math.min(100, j.height / 4))
  // Nothing is pushed sideways off the screen.
  expect(await j.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(j.width)
}

/** `inner` lies inside `outer`, to half a pixel. */
export function expectInside(inner: Box, outer: Box, what: string): void {
  expect(inner.x, what).toBeGreaterThanOrEqual(outer.x - 0.5)
  expect(inner.y, what).toBeGreaterThanOrEqual(outer.y - 0.5)
  expect(inner.x + inner.width, what).toBeLessThanOrEqual(outer.x + outer.width + 0.5)
  expect(inner.y + inner.height, what).toBeLessThanOrEqual(outer.y + outer.height + 0.5)
}

export const viewportOf = (j: Journey): Box => ({ x: 0, y: 0, width: j.width, height: j.height })

/**
 * An open chat fits the screen as it is, upright or sideways: the page does not scroll, the reply box and its
 * Send button are on screen and under no bulk strip, and the history keeps some room above them.
 */
export async function chatFitsTheScreen(j: Journey): Promise<void> {
  const { page } = j
  const main = page.locator('#main')
  const overflow = await main.evaluate((el) => el.scrollHeight - el.clientHeight)
  expect(overflow, 'the page does not scroll to reach the reply box').toBeLessThanOrEqual(1)
  const reply = await box(page.getByTestId('reply-text'))
  const send = await box(page.getByTestId('reply-send'))
  expectInside(reply, viewportOf(j), 'the reply box is on screen')
  expectInside(send, viewportOf(j), 'Send is on screen')
  if ((await strip(page).count()) > 0) {
    const panel = await box(strip(page))
    for (const b of [reply, send]) {
      const over = intersection(b, panel)
      expect(over.width * over.height, 'the bulk strip covers none of the reply box').toBeLessThanOrEqual(1)
    }
  }
  const history = await box(page.getByTestId('chat-history'))
  expect(history.height, 'the history keeps some room').toBeGreaterThanOrEqual(80)
  test.info().annotations.push({
    type: 'chat room',
    description: `${j.run}: history ${Math.round(history.height)} px, reply box ends ${Math.round(reply.y + reply.height)} px of ${j.height}`,
  })
}

/**
 * What the dark colour scheme leaves wrong on screen: light surfaces (a light background bigger than a
 * badge), and text whose contrast with the surface under it is below 4.5:1 (each named by test id, or tag
 * and classes, with the colours found).
 */
export async function darkSchemeFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Any CSS colour (Tailwind's palette is oklch) as sRGB bytes, through a canvas pixel.
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!
    const rgba = (value: string) => {
      if (!value || value === 'transparent') return undefined
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = value
      ctx.fillRect(0, 0, 1, 1)
      const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data
      return { r, g, b, a: a / 255 }
    }
    const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const c = [r, g, b].map((v) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!
    }
    const surface = (el: Element | null) => {
      for (let at = el; at; at = at.parentElement) {
        const bg = rgba(getComputedStyle(at).backgroundColor)
        if (bg && bg.a >= 0.5) return bg
      }
      return rgba(getComputedStyle(document.body).backgroundColor)!
    }
    const name = (el: Element) =>
      el.getAttribute('data-testid') ??
      `${el.tagName.toLowerCase()}.${Array.from(el.classList).slice(0, 6).join('.')}`
    const faults: string[] = []
    for (const el of Array.from(document.querySelectorAll('[data-testid="app-layout"] *'))) {
      const rect = el.getBoundingClientRect()
      if (rect.width <= 1 || rect.height <= 1 || rect.bottom < 0 || rect.top > innerHeight) continue
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue
      if (el.tagName === 'IMG' || el.tagName === 'svg' || el.closest('svg')) continue
      const bg = rgba(style.backgroundColor)
      if (bg && bg.a >= 0.5 && lum(bg) > 0.6 && rect.width * rect.height > 1600)
        faults.push(`${name(el)}: light surface ${style.backgroundColor}`)
      const ownText = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim(),
      )
      if (!ownText || el.closest('.sr-only')) continue
      const fg = rgba(style.color)!
      const back = surface(el)
      const [hi, lo] = [lum(fg), lum(back)].sort((a, b) => b - a)
      const ratio = (hi! + 0.05) / (lo! + 0.05)
      if (ratio < 4.5)
        faults.push(`${name(el)}: text ${style.color} on ${`rgb(${back.r}, ${back.g}, ${back.b})`}`)
    }
    return faults
  })
}

export async function waitForServiceWorker(page: Page): Promise<void> {
  await page
    .waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 })
    .catch(() => undefined)
}

export const strip = (page: Page) => page.getByTestId('bulk-panel')

export async function setStripOpen(page: Page, open: boolean): Promise<void> {
  const panel = strip(page)
  if ((await panel.getAttribute('data-layout')) !== 'strip') return
  if ((await panel.getAttribute('data-expanded')) === String(open)) return
  await page.getByTestId('bulk-strip-toggle').click()
  await expect(panel).toHaveAttribute('data-expanded', String(open))
}

export type Step = (j: Journey) => Promise<void>

export function journeyOf(page: Page, context: BrowserContext, baseURL: string, run: string): Journey {
  const { width, height } = page.viewportSize()!
  return { page, context, baseURL, run, width, height, shots: 0 }
}

/** Walks the named steps in order, each a reported step of the test. */
export async function walk<N extends string>(
  j: Journey,
  steps: Record<N, Step>,
  names: readonly N[],
): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  for (const name of names) await test.step(name, () => steps[name](j))
}
