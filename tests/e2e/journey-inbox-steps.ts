/** Steps of the phone journey on the inbox: signing in, pages, chats, Back, deep links, modals. */
import { expect } from '@playwright/test'
import { type Journey, chatFitsTheScreen, shot } from './journey-support.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

export const inboxSteps = {
  async signIn(j: Journey) {
    await loginAsDemo(j.page)
    await expect(j.page.getByTestId('page-card').first()).toBeVisible()
    await shot(j, 'signed-in')
  },

  async openPage(j: Journey) {
    await j.page.locator(`a[data-testid="page-card"][href="/${pages.small}"]`).click()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
    await shot(j, 'page-opened')
  },

  async openChat(j: Journey) {
    await j.page.getByTestId('conversation-row').first().click()
    await expect(j.page).toHaveURL(/\?c=/)
    await expect(j.page.getByTestId('chat-view')).toBeVisible()
    await expect(j.page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    j.chatUrl = new URL(j.page.url()).pathname + new URL(j.page.url()).search
    await expect(j.page.getByTestId('reply-text')).toBeVisible()
    await chatFitsTheScreen(j)
    await shot(j, 'chat-opened')
  },

  /** The platform's Back: from the chat to the list, then home (opening the chat pushed an entry). */
  async backToListThenHome(j: Journey) {
    await j.page.goBack()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible()
    await expect(j.page.getByTestId('chat-view')).toHaveCount(0)
    await shot(j, 'back-to-list')
    await j.page.goBack()
    await expect(j.page.getByTestId('page-card').first()).toBeVisible()
    expect(new URL(j.page.url()).pathname).toBe('/')
    await shot(j, 'back-home')
  },

  /** A chat's address opened cold shows that chat; its back control then shows the list. */
  async deepLinkToChat(j: Journey) {
    expect(j.chatUrl).toBeTruthy()
    await j.page.goto(j.chatUrl!)
    await expect(j.page.getByTestId('chat-view')).toBeVisible({ timeout: 20_000 })
    await expect(j.page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    await shot(j, 'deep-link-chat')
    await j.page.getByRole('button', { name: 'Back to conversations' }).click()
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
  },

  /** A modal lives in the address: Back closes it and leaves the owner where they were. */
  async modalClosedByBack(j: Journey) {
    const { page } = j
    // A chat on a short phone keeps the screen for the conversation (the app's header steps aside): the
    // account menu is reached from the list.
    const account = page.locator('header').getByRole('button', { name: 'My subscription' })
    if (!(await account.isVisible()) && (await page.getByTestId('chat-view').isVisible()))
      await page.getByRole('button', { name: 'Back to conversations' }).click()
    const before = new URL(page.url()).pathname
    await account.click()
    await expect(page.getByTestId('modal')).toBeVisible()
    await expect(page).toHaveURL(/[?&]modal=user/)
    await shot(j, 'modal-open')
    await page.goBack()
    await expect(page.getByTestId('modal')).toHaveCount(0)
    await expect(page).not.toHaveURL(/modal=/)
    expect(new URL(page.url()).pathname).toBe(before)
    await expect(page.getByTestId('app-layout')).toBeVisible()
    await shot(j, 'modal-closed-by-back')
  },
}
