/**
 * The login dialog standing in for the network's popup, the silent login status (session cookie on
 * /sandbox) and logout. Answers are shaped like `FB.login`'s.
 */
import { createHmac } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { cookieValue } from '../../core/api/cookie-header.ts'
import type { SandboxContext } from '../context.ts'
import { escapeHtml, SANDBOX_CSS, sendHtml } from '../html.ts'
import { isUserKey } from '../routes/inspect.ts'
import type { UserKey } from '../state/demo.ts'
import { mergeGrants, SHORT_LIVED_S, splitGrants } from '../state/tokens.ts'
import { DIALOG_SCRIPT } from './dialog-script.ts'

export const SESSION_COOKIE = 'sandbox_session'

export interface LoginResponse {
  status: 'connected' | 'unknown'
  authResponse: {
    accessToken: string
    userID: string
    expiresIn: number
    grantedScopes: string
    signedRequest: string
  } | null
}

const readCookie = (request: FastifyRequest, name: string) => cookieValue(request.headers.cookie, name)

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && /^[a-z_]+$/.test(s)) : []
}

export function registerDialog(app: FastifyInstance, ctx: SandboxContext, prefix: string): void {
  const { options, store, tokens } = ctx

  function connected(user: UserKey, asked: string[], refused: string[]): LoginResponse {
    const { granted, declined } = splitGrants(asked, refused)
    const accessToken = tokens.issueUser(user, granted, declined)
    const userID = store.users[user].id
    const payload = Buffer.from(
      JSON.stringify({ algorithm: 'HMAC-SHA256', issued_at: Math.floor(Date.now() / 1000), user_id: userID }),
    ).toString('base64url')
    const sig = createHmac('sha256', options.appSecret).update(payload).digest('base64url')
    return {
      status: 'connected',
      authResponse: {
        accessToken,
        userID,
        expiresIn: SHORT_LIVED_S,
        grantedScopes: ['public_profile', ...granted].filter((s, i, a) => a.indexOf(s) === i).join(','),
        signedRequest: `${sig}.${payload}`,
      },
    }
  }

  function setSession(reply: FastifyReply, value: string, maxAge: number): void {
    const secure = options.publicUrl.startsWith('https:') ? '; Secure' : ''
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${value}; Path=${prefix}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`,
    )
  }

  app.get('/sandbox.css', async (_request, reply) => reply.type('text/css').send(SANDBOX_CSS))
  app.get('/dialog/dialog.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DIALOG_SCRIPT),
  )

  app.get('/dialog/oauth', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>
    const css = `${prefix}/sandbox.css`
    if (q.client_id !== options.appId) {
      return sendHtml(
        reply,
        'Error',
        '<main><h1>Invalid App ID</h1><p>The provided app ID does not look like a valid app ID.</p></main>',
        { css, status: 400 },
      )
    }
    const scopes = (q.scope ?? '').split(/[,\s]+/).filter((s) => /^[a-z_]+$/.test(s))
    const users = Object.values(store.users)
    const body = `<main>
<h1>Log in to Pagecast</h1>
<p>Pagecast is requesting access to your account.</p>
<form id="login" data-client-id="${escapeHtml(options.appId)}">
<fieldset><legend>Account</legend>
${users.map((u, i) => `<label><input type="radio" name="user" value="${u.key}"${i === 0 ? ' checked' : ''}> ${escapeHtml(u.name)}${i === 0 ? '' : ' (switch account)'}</label>`).join('\n')}
</fieldset>
<fieldset><legend>Permissions</legend>
${scopes.map((s) => `<label><input type="checkbox" name="scope" value="${s}" checked> ${s}</label>`).join('\n')}
</fieldset>
<div class="actions"><button type="button" id="cancel" disabled>Cancel</button><button type="submit" class="primary" id="continue" disabled>Continue</button></div>
</form>
<p class="note">Sandbox: a local stand-in for the social network's login.</p>
</main>`
    return sendHtml(reply, 'Log in', body, { css, script: `${prefix}/dialog/dialog.js` })
  })

  app.post('/dialog/grant', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    if (body.client_id !== options.appId || !isUserKey(body.user))
      return reply.status(400).send({ status: 'unknown', authResponse: null })
    // Incremental login (the dialog again with more scopes, auth_type=rerequest): the user's earlier grants
    // stay unless this answer declines them, and what it grants adds to them.
    const earlier = tokens.session(readCookie(request, SESSION_COOKIE))
    const { granted, declined } =
      earlier?.user === body.user
        ? mergeGrants(earlier, strings(body.granted), strings(body.declined))
        : { granted: strings(body.granted), declined: strings(body.declined) }
    tokens.closeSession(readCookie(request, SESSION_COOKIE))
    setSession(reply, tokens.openSession(body.user, granted, declined), 30 * 86_400)
    return connected(body.user, granted, declined)
  })

  app.get('/login-status', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = tokens.session(readCookie(request, SESSION_COOKIE))
    if (!session) return { status: 'unknown', authResponse: null } satisfies LoginResponse
    return connected(session.user, session.granted, session.declined)
  })

  app.post('/logout', async (request, reply) => {
    tokens.closeSession(readCookie(request, SESSION_COOKIE))
    setSession(reply, '', 0)
    return { status: 'unknown', authResponse: null } satisfies LoginResponse
  })
}
