import { describe, expect, it } from 'vitest'
import { notificationsFor } from './error-catalogue.ts'

const titles = { warning: 'Warning', pleaseCheck: 'Please check.', internalError: 'Internal Error' }

describe('error catalogue', () => {
  it('shows a 406 as a yellow "Warning" with the server message', () => {
    expect(
      notificationsFor({ status: 406, body: { message: 'Page banned' }, fallbackMessage: 'x' }, titles),
    ).toEqual([{ kind: 'warning', title: 'Warning', message: 'Page banned' }])
  })
  it('shows each message of a 422 errors map as its own yellow "Please check."', () => {
    const body = { message: 'invalid', errors: { a: ['First'], b: ['Second', 'Third'] } }
    const list = notificationsFor({ status: 422, body, fallbackMessage: 'x' }, titles)
    expect(list.map((n) => [n.kind, n.title, n.message])).toEqual([
      ['warning', 'Please check.', 'First'],
      ['warning', 'Please check.', 'Second'],
      ['warning', 'Please check.', 'Third'],
    ])
  })
  it('shows a 500 as a red "Internal Error" with the server message', () => {
    expect(
      notificationsFor({ status: 500, body: { message: 'boom' }, fallbackMessage: 'x' }, titles),
    ).toEqual([{ kind: 'error', title: 'Internal Error', message: 'boom' }])
  })
  it('shows any other failure as a red "Internal Error" with the error message', () => {
    expect(
      notificationsFor({ status: 0, body: undefined, fallbackMessage: 'Failed to fetch' }, titles),
    ).toEqual([{ kind: 'error', title: 'Internal Error', message: 'Failed to fetch' }])
  })
  it('shows nothing for a 401: the login screen takes over', () => {
    expect(notificationsFor({ status: 401, body: { message: 'no' }, fallbackMessage: 'x' }, titles)).toEqual(
      [],
    )
  })
  it('says a 406 with a known code in the user’s language, and keeps the English message otherwise', () => {
    const refusal = (code: string) =>
      code === 'trial_used' ? { message: 'Esta página ya se usó', persistent: true } : undefined
    const body = (code: string) => ({ message: 'This page has already been used', code })
    expect(
      notificationsFor({ status: 406, body: body('trial_used'), fallbackMessage: 'x' }, titles, refusal),
    ).toEqual([{ kind: 'warning', title: 'Warning', message: 'Esta página ya se usó', persistent: true }])
    expect(
      notificationsFor({ status: 406, body: body('other'), fallbackMessage: 'x' }, titles, refusal),
    ).toEqual([{ kind: 'warning', title: 'Warning', message: 'This page has already been used' }])
  })
})
