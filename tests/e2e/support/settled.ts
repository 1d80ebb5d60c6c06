/**
 * Waits until the screen has stopped moving: two frames drawn and no finite animation or transition (the
 * sidebar's width, a sheet sliding in) still running. Endless ones (a spinner) never settle and are not
 * waited for. Measures of boxes and text are taken after it, rather than after a fixed pause.
 */
import { type Page, expect } from '@playwright/test'

export async function settled(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
          return document
            .getAnimations()
            .every(
              (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
            )
        }),
      { message: 'the screen stops moving', intervals: [50] },
    )
    .toBe(true)
}
