/**
 * The `errors` map of a 422 as the API's contracts produce it: each field named by its dotted path with the
 * schema's English message, an unknown field refused by name.
 */
import { describe, expect, it } from 'vitest'
import { createMessageBody, loginBody, reserveBody } from '../../core/contracts/api.ts'
import { savedReplyBody } from '../../core/contracts/saved-replies.ts'
import { HttpError, parse } from './errors.ts'

function errorsOf(schema: Parameters<typeof parse>[0], value: unknown): Record<string, string[]> {
  try {
    parse(schema, value)
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 422) return err.errors ?? {}
    throw err
  }
  throw new Error('the value was accepted')
}

describe('the errors map of a contract', () => {
  it('names each field with the library’s English message, and refuses unknown fields by name', () => {
    expect(errorsOf(loginBody, { access_token: '', referral: 5, extra: true })).toEqual({
      access_token: [
        'Too small: expected string to have >=1 characters',
        'A token holds only printable ASCII characters, without spaces.',
      ],
      referral: ['Invalid input: expected string, received number'],
      extra: ['The field extra is not allowed.'],
    })
  })

  it('follows nested fields by their path, with limits, whole numbers and choices', () => {
    expect(
      errorsOf(reserveBody, { epoch: 1.5, recipients: [{ recipient_id: 'x'.repeat(65), branded: 'no' }] }),
    ).toEqual({
      epoch: ['Invalid input: expected int, received number'],
      'recipients.0.recipient_id': ['Too big: expected string to have <=64 characters'],
      'recipients.0.branded': ['Invalid input: expected boolean, received string'],
    })
    expect(errorsOf(createMessageBody, {})).toMatchObject({
      page_id: ['Invalid input: expected string, received undefined'],
      message_type_id: ['Invalid input'],
    })
  })

  it('keeps the contract’s own words and reads trimmed text', () => {
    expect(errorsOf(savedReplyBody, { text: '   ' })).toEqual({ text: ['The text must not be empty.'] })
    expect(parse(savedReplyBody, { text: '  hi  ' })).toEqual({ title: '', text: 'hi' })
  })
})
