/**
 * A page owner's day on a phone (360 x 740, and turned to 740 x 360): sign in, open a page and a chat, Back,
 * a bulk send while the inbox stays in use (also seen in the dark colour scheme), an offline reload and the
 * reconnect, a modal and the saved replies closed by Back, a conversation found by search without scrolling to
 * it, a customer writing live (unread counts rise, then clear on opening), and the app switched to Urdu with a
 * customer's Latin text still left to right. Each step is a named function of the journey (`steps` below),
 * walked in the order each walk names. Screenshots of every step go to tests/artifacts/phone-journey/.
 */
import { walk, journeyOf } from './journey-support.ts'
import { bulkSteps } from './journey-bulk-steps.ts'
import { daySteps } from './journey-day-steps.ts'
import { inboxSteps } from './journey-inbox-steps.ts'
import { offlineSteps } from './journey-offline-steps.ts'
import { stackTest } from './support/fixtures.ts'

// The sends are paced at half the real 800–1500 ms: a send of the small page lasts long enough to be paused
// from its card, whatever the machine's speed (pacing is a lower bound on the duration).
const test = stackTest({ PACING_SCALE: '0.5' })

// The day includes an offline reload, which the service worker answers.
test.use({ serviceWorkers: 'allow' })

/** Every step of the day; a new part of the journey is a new entry here and a name in a walk below. */
const steps = { ...inboxSteps, ...bulkSteps, ...offlineSteps, ...daySteps }

test.describe('on a phone held upright (360 x 740)', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

  test('a page owner walks through a day', async ({ page, context, baseURL }) => {
    test.setTimeout(240_000)
    await walk(journeyOf(page, context, baseURL!, 'portrait'), steps, [
      'signIn',
      'openPage',
      'openChat',
      'backToListThenHome',
      'openPage',
      'bulkWhileBrowsing',
      'finishAndDismiss',
      'deepLinkToChat',
      'offlineReloadAndReconnect',
      'replyQueuedLeavesFromHome',
      'bulkResumesOnReconnectFromHome',
      'modalClosedByBack',
      'searchNeverScrolled',
      'unreadRaisedLiveThenCleared',
      'savedRepliesClosedByBack',
      'urduLatinLeftToRight',
    ])
  })
})

test.describe('on a phone turned sideways (740 x 360)', () => {
  test.use({ viewport: { width: 740, height: 360 }, hasTouch: true, isMobile: true })

  test('the chat, Back, a bulk send beside the inbox and a modal work in landscape', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    await walk(journeyOf(page, context, baseURL!, 'landscape'), steps, [
      'signIn',
      'openPage',
      'openChat',
      'backToListThenHome',
      'openPage',
      'bulkWhileBrowsing',
      'finishAndDismiss',
      'savedRepliesClosedByBack',
      'modalClosedByBack',
    ])
  })
})

test.describe('on a desktop (1280 x 800)', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('the cards sit in a column beside the inbox, which keeps its width', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    await walk(journeyOf(page, context, baseURL!, 'desktop'), steps, [
      'signIn',
      'openPage',
      'openChat',
      'bulkWhileBrowsing',
      'finishAndDismiss',
    ])
  })
})
