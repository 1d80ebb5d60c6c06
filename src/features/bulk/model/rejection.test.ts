import { i18n } from '@lingui/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bulkMessage } from '../../../device/bulk/protocol.ts'
import { graphErrorWords } from '../../../core/graph/error-words.ts'
import { rejectionNotice } from './rejection.ts'

const URDU_WORDS = 'یہ شخص ابھی آپ کے پیج سے پیغام نہیں لے سکتا'

describe('the notice of a refused recipient', () => {
  beforeEach(() => {
    i18n.load('ur', { [graphErrorWords('recipient_gone').id]: `${URDU_WORDS}.` })
    i18n.activate('ur')
  })
  afterEach(() => i18n.activate('en'))

  it("says the class in the user's language, the network's text beside it and the name apart", () => {
    const notice = rejectionNotice(
      bulkMessage.rejected(
        'j1',
        'زینب احمد',
        "(#551) This person isn't available right now.",
        'recipient_gone',
      ) as Extract<ReturnType<typeof bulkMessage.rejected>, { type: 'rejected' }>,
    )
    expect(notice.message).toContain(URDU_WORDS)
    expect(notice.message).not.toContain('#551')
    expect(notice.detail).toBe("(#551) This person isn't available right now.")
    expect(notice.subject).toBe('زینب احمد')
    // Kept until closed, as the error catalogue says; there is nothing to do but read it.
    expect(notice.persistent).toBe(true)
    expect(notice.action).toBeUndefined()
  })

  it('says a marketing reason in words and shows no code', () => {
    const notice = rejectionNotice(
      bulkMessage.rejected('j1', 'Ana', 'marketing:subscriber_stopped') as Extract<
        ReturnType<typeof bulkMessage.rejected>,
        { type: 'rejected' }
      >,
    )
    expect(notice.message).not.toContain('marketing:')
    expect(notice.detail).toBeUndefined()
  })
})
