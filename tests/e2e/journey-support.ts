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
