/** Words the wizard says both in step 3 and in its notice when the send is refused. */
import { plural } from '@lingui/core/macro'

/** The most people one send reaches in a day at Messenger's pace, and what to do about it. */
export function overADayText(max: number): string {
  return plural(max, {
    one: "At Messenger's pace one send reaches at most # person a day. Choose fewer customers, by label for instance.",
    other:
      "At Messenger's pace one send reaches at most # people a day. Choose fewer customers, by label for instance.",
  })
}
