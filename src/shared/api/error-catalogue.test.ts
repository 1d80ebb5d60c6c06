import { describe, expect, it } from 'vitest'
import { notificationsFor } from './error-catalogue.ts'

const titles = {
  warning: 'Advertencia',
  pleaseCheck: 'Revisa.',
  internalError: 'Error interno',
  noConnection: 'Sin conexión',
  noConnectionMessage: 'Pagecast no pudo conectar con su servidor.',
  serverFailed: 'El servidor no pudo terminar esto.',
  tooManyRequests: 'Demasiadas solicitudes.',
  refused: (status: number) => `El servidor rechazó esta solicitud (error ${status}).`,
}

describe('error catalogue', () => {
  it('shows a 406 as a yellow "Warning" with the server message', () => {
    expect(
      notificationsFor({ status: 406, body: { message: 'Page banned' }, fallbackMessage: 'x' }, titles),
    ).toEqual([{ kind: 'warning', title: 'Advertencia', message: 'Page banned' }])
  })
  it('shows each message of a 422 errors map as its own yellow "Please check."', () => {
    const body = { message: 'invalid', errors: { a: ['First'], b: ['Second', 'Third'] } }
    const list = notificationsFor({ status: 422, body, fallbackMessage: 'x' }, titles)
    expect(list.map((n) => [n.kind, n.title, n.message])).toEqual([
      ['warning', 'Revisa.', 'First'],
      ['warning', 'Revisa.', 'Second'],
      ['warning', 'Revisa.', 'Third'],
    ])
  })
  it('shows a 500 as a red "Internal Error" with the server message, or in the user’s words without one', () => {
    expect(
      notificationsFor(
        { status: 500, body: { message: 'Database unavailable' }, fallbackMessage: 'x' },
        titles,
      ),
    ).toEqual([{ kind: 'error', title: 'Error interno', message: 'Database unavailable' }])
    // The server's own generic answer repeats the title: the user's words say what happened instead.
    expect(
      notificationsFor({ status: 500, body: { message: 'Internal Error' }, fallbackMessage: 'x' }, titles),
    ).toEqual([{ kind: 'error', title: 'Error interno', message: 'El servidor no pudo terminar esto.' }])
    expect(
      notificationsFor(
        { status: 503, body: '<html>Bad gateway</html>', fallbackMessage: 'Service Unavailable' },
        titles,
      ),
    ).toEqual([{ kind: 'error', title: 'Error interno', message: 'El servidor no pudo terminar esto.' }])
  })
  it('shows any other failure as a red "Internal Error": the server message, else its status in the user’s words', () => {
    expect(
      notificationsFor({ status: 404, body: { message: 'Not found' }, fallbackMessage: 'Not Found' }, titles),
    ).toEqual([{ kind: 'error', title: 'Error interno', message: 'Not found' }])
    expect(
      notificationsFor({ status: 418, body: 'teapot', fallbackMessage: "I'm a teapot" }, titles),
    ).toEqual([
      { kind: 'error', title: 'Error interno', message: 'El servidor rechazó esta solicitud (error 418).' },
    ])
    expect(
      notificationsFor(
        { status: 429, body: { message: 'Too many requests.' }, fallbackMessage: 'x' },
        titles,
      ),
    ).toEqual([{ kind: 'error', title: 'Error interno', message: 'Demasiadas solicitudes.' }])
  })
  it('shows a call that got no answer as a lost connection, not as an "Internal Error"', () => {
    expect(
      notificationsFor({ status: 0, body: undefined, fallbackMessage: 'Failed to fetch' }, titles),
    ).toEqual([
      { kind: 'warning', title: 'Sin conexión', message: 'Pagecast no pudo conectar con su servidor.' },
    ])
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
    ).toEqual([{ kind: 'warning', title: 'Advertencia', message: 'Esta página ya se usó', persistent: true }])
    expect(
      notificationsFor({ status: 406, body: body('other'), fallbackMessage: 'x' }, titles, refusal),
    ).toEqual([{ kind: 'warning', title: 'Advertencia', message: 'This page has already been used' }])
  })
})
