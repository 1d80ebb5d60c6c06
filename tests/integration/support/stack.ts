/**
 * The API with the sandbox mounted under /sandbox on one loopback port, as `npm start` composes them, on an
 * in-memory database: the set-up the integration tests and the benches share, with a JSON fetch helper and the
 * demo owner's sign-in.
 */
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify'
import { REQUIRED_PERMISSIONS } from '../../../src/core/constants/limits.ts'
import { sandboxPlugin, type SandboxOptions } from '../../../src/sandbox/app.ts'
import { buildApp, type BuildOptions } from '../../../src/server/app.ts'
import { loadConfig } from '../../../src/server/config.ts'
import { freePort } from '../../e2e/support/stack.ts'

/** The seed of the sandbox's demo world the tests share. */
export const DEMO_SEED = 20260427

export interface SandboxStackOptions {
  /** Settings added to the test environment (NODE_ENV, DATA_DIR, LOG_LEVEL, STATIC_DIR, PUBLIC_URL, PORT). */
  env?: Record<string, string>
  /** Sandbox options beyond the current policy, the seed, the app's id and secret, the public URL and liveMs 0. */
  sandbox?: Partial<SandboxOptions>
  /** buildApp options beyond the config and the sandbox mount (demo, sandboxWebhookSecret, serverSender…). */
  app?: Omit<BuildOptions, 'config' | 'mounts'>
  /** Told of every route the stack registers (the sandbox's, the API's, the webhooks', the static files'). */
  onRoute?: (route: RouteOptions) => void
}

export interface JsonAnswer {
  status: number
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of known answers
  body: Record<string, any>
}

export interface SandboxStack {
  app: FastifyInstance
  /** The stack's origin, `http://127.0.0.1:<port>`. */
  base: string
  /** A JSON call to the stack; redirects are answered, not followed. */
  json: (method: string, path: string, body?: unknown, token?: string) => Promise<JsonAnswer>
  close: () => Promise<void>
}

export async function startSandboxStack(options: SandboxStackOptions = {}): Promise<SandboxStack> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent',
    PUBLIC_URL: base,
    PORT: String(port),
    ...options.env,
  })
  const sandbox = sandboxPlugin({
    policy: 'current',
    seed: DEMO_SEED,
    appId: config.FB_APP_ID,
    appSecret: config.FB_APP_SECRET,
    publicUrl: base,
    liveMs: 0,
    ...options.sandbox,
  })
  const mounts = [{ prefix: '/sandbox', plugin: sandbox }]
  if (options.onRoute) mounts.unshift({ prefix: '', plugin: routeWatcher(options.onRoute) })
  const app = await buildApp({ ...options.app, config, mounts })
  await app.listen({ host: '127.0.0.1', port })
  const json = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    })
    return { status: res.status, body: (await res.json().catch(() => null)) as JsonAnswer['body'] }
  }
  return { app, base, json, close: () => app.close() }
}

/** A plugin that hooks the root instance (not a scope of its own), so it hears every route registered after it. */
function routeWatcher(onRoute: (route: RouteOptions) => void): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => {
    app.addHook('onRoute', onRoute)
  }
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true })
}

/** A sandbox user token for the demo owner with every permission the product asks for. */
export async function demoUserToken(
  stack: SandboxStack,
  extra: { declined?: string[] } = {},
): Promise<string> {
  const res = await stack.json('POST', '/sandbox/token', {
    user: 'demo',
    scopes: [...REQUIRED_PERMISSIONS],
    ...extra,
  })
  return res.body.access_token as string
}

/** Signs the demo owner in: the sandbox user token and the product's session token. */
export async function signInDemo(stack: SandboxStack): Promise<{ userToken: string; session: string }> {
  const userToken = await demoUserToken(stack)
  const session = (await stack.json('POST', '/api/v2/login', { access_token: userToken })).body.data
    .token as string
  return { userToken, session }
}

/** The page token the network's /me/accounts gives the user for one page. */
export async function pageTokenOf(stack: SandboxStack, userToken: string, pageId: string): Promise<string> {
  const accounts = await fetch(
    `${stack.base}/sandbox/graph/v25.0/me/accounts?fields=id,access_token&access_token=${userToken}`,
  )
  return ((await accounts.json()) as { data: { id: string; access_token?: string }[] }).data.find(
    (p) => p.id === pageId,
  )!.access_token!
}

/** Signs the demo owner in and reads the page token of one of the demo's pages. */
export async function signInDemoWithPage(
  stack: SandboxStack,
  pageId: string,
): Promise<{ userToken: string; session: string; pageToken: string }> {
  const signedIn = await signInDemo(stack)
  return { ...signedIn, pageToken: await pageTokenOf(stack, signedIn.userToken, pageId) }
}
