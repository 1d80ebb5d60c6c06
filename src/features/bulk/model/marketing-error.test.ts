/** The words of a marketing stop reason: the shared texts for the network's errors, the wizard's own two. */
import { describe, expect, it } from 'vitest'
import { i18n } from '@lingui/core'
import { marketingReasonText } from './marketing-error.ts'

i18n.loadAndActivate({ locale: 'en', messages: {} })
const say = (name: string) => i18n._(marketingReasonText(name))

describe('a marketing stop reason in words', () => {
  it("says the network's reasons with the shared marketing error texts", () => {
    expect(say('budget_spent')).toBe("The campaign's budget is spent, so sending stopped.")
    expect(say('inactive_campaign')).toMatch(/paused/)
  })

  it('says the start reasons of its own, and something for a name it does not know', () => {
    expect(say('no_connection')).toBe(
      'The server could not be reached, so the marketing send did not start. Nothing was sent.',
    )
    expect(say('start_failed')).toBe('The marketing send could not start. Nothing was sent.')
    expect(say('something_new')).toBe('The marketing send could not start. Nothing was sent.')
  })
})
