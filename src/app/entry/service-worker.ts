/**
 * The service worker and its storage checks wait until the first real screen is painted: they are not needed
 * for it, and on a slow connection their code would compete with it. A signed-out visitor gets them when the
 * browser is idle (not on a data-saving connection); Dexie itself waits for a session. The entry calls this in
 * production builds; the schedule is in the entry chunk, the registration is a chunk of its own.
 */
import { browserIdle, browserSavesData, scheduleServiceWorker } from '../../features/pwa/schedule.ts'
import { sessionStore } from '../../shared/session/store.ts'
import { firstScreenShown } from '../../shared/ui/first-screen.ts'

export function startServiceWorker(): void {
  void firstScreenShown().then(() =>
    scheduleServiceWorker(
      () => void import('../../features/pwa/register.ts').then((pwa) => pwa.registerServiceWorker()),
      {
        isSignedIn: () => sessionStore.getState().status === 'logged_in',
        subscribe: sessionStore.subscribe,
        saveData: browserSavesData(),
        idle: browserIdle,
      },
    ),
  )
}
