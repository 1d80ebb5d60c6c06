/**
 * Work the signed-in app's first render would otherwise do itself, done while the browser is idle waiting for
 * that app's code and the session check: the language's number data (the header's message count).
 */
import { prepareNumberData } from '../../core/format/intl-locale.ts'
import { browserIdle } from '../../features/pwa/schedule.ts'

export function prepareSignedInStart(locale: string): void {
  browserIdle(() => prepareNumberData(locale))
}
