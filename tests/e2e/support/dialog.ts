/** The sandbox login dialog's "Continue", shared by the end-to-end tests and the benchmarks. */
import type { Page } from '@playwright/test'

export async function pressContinue(popup: Page): Promise<void> {
  // The dialog closes itself as it answers: the click can end after the popup is gone, which is success.
  await popup
    .getByRole('button', { name: /^Continue$/ })
    .click()
    .catch((err: unknown) => {
      if (!popup.isClosed()) throw err
    })
}
