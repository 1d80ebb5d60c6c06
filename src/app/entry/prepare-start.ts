/**
 * Work the signed-in app's first render would otherwise do itself, done while the browser is idle waiting for
 * that app's code and the session check: the language's number data (the header's message count) and its
 * relative-time data (the inbox list's times). Each is an idle task of its own.
 */
import { prepareNumberData, prepareRelativeTimeData } from '../../core/format/intl-locale.ts'
import { browserIdle } from '../../features/pwa/schedule.ts'

export function prepareSignedInStart(locale: string): void {
  browserIdle(() => prepareNumberData(locale))
  browserIdle(() => prepareRelativeTimeData(locale))
}
