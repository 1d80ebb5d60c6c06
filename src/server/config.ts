/**
 * The one validated configuration of the server process. A missing or malformed value fails at start-up
 * with a message naming the variable, never later.
 */
import { z } from 'zod'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/** Public defaults that let the sandbox work out of the box: never accepted in production. */
const DEFAULT_APP_SECRET = 'sandbox-secret'
const DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox'
const DEFAULT_VERIFY_TOKEN = 'sandbox-verify-token'

function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(value)) return false
  try {
    const url = new URL(value)
    return url.hostname !== ''
  } catch {
    return false
  }
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public origin of the app, used in checkout return URLs and upload URLs. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .refine(
      isPostgresUrl,
      'must be a postgres:// URL with a host, like postgres://user:password@host:5432/pagecast',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Sandbox on: the stand-in network (free logins, fault switches, test payments) is mounted at /sandbox and
   * the app talks to it. Default: on, except with NODE_ENV=production, where only SANDBOX=true turns it on.
   */
  SANDBOX: bool.optional(),
  /**
   * Test routes on (`/api/v2/testing/...`: an account put in any subscription state): only with the sandbox as
   * the network, never in production (docs/architecture.md#testing-states).
   */
  TEST_ROUTES: bool.default(false),
  SANDBOX_POLICY: z.enum(['current', 'legacy']).default('current'),
  SANDBOX_SEED: z.coerce.number().int().default(20260427),
  /**
   * How many conversations the sandbox's large demo page has (its shares inside 24 h and at 1–7 days kept):
   * a test that sends to every customer inside the window asks for fewer, a page at real size for more
   * (20,000 to 200,000).
   */
  SANDBOX_LARGE_PAGE_CONVERSATIONS: z.coerce.number().int().min(100).max(200_000).default(1280),
  /** New customer messages arrive in the sandbox every N ms (0: never). */
  SANDBOX_LIVE_MS: z.coerce.number().int().nonnegative().default(0),
  /**
   * Where the sandbox sends its Messenger webhooks (signed with FB_APP_SECRET): a path on this server (the
   * default, the server's own `/webhooks/messenger`) or an absolute URL; empty: none are sent.
   */
  SANDBOX_MESSENGER_WEBHOOK_URL: z.string().default('/webhooks/messenger'),
  MESSAGING_POLICY: z.enum(['current', 'legacy']).default('current'),
  HUMAN_AGENT_ENABLED: bool.default(false),
  GRAPH_URL: z.string().url().optional(),
  GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default('v25.0'),
  FB_APP_ID: z.string().default('sandbox-app'),
  FB_APP_SECRET: z.string().default(DEFAULT_APP_SECRET),
  /**
   * The word the network's webhook set-up sends back in its handshake (`GET /webhooks/messenger`): the same
   * value is entered as the "Verify token" in the app's Messenger webhook settings.
   */
  WEBHOOK_VERIFY_TOKEN: z.string().min(8).default(DEFAULT_VERIFY_TOKEN),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe coupon id giving the referral discount (15% for 3 months), created once in the Stripe dashboard. */
  STRIPE_REFERRAL_COUPON: z.string().default('pagecast-referral-15'),
  /** Shared with the sandbox's checkout page, which signs its Stripe-format events with it. */
  SANDBOX_WEBHOOK_SECRET: z.string().min(8).default(DEFAULT_WEBHOOK_SECRET),
  /**
   * Which proxies' X-Forwarded-* headers are believed (client address for rate limits, https for HSTS):
   * `true`, `false`, or a comma-separated list of addresses, CIDR ranges and the names loopback, linklocal,
   * uniquelocal. The default believes only a proxy on this machine: any other address could claim to be
   * anyone (and escape the per-address rate limits), so a proxy elsewhere is named explicitly.
   */
  TRUST_PROXY: z.string().default('loopback'),
  /** Requests per minute and client address; NODE_ENV=test raises both to 10,000 unless set explicitly. */
  RATE_LIMIT_LOGIN_PER_MIN: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_UPLOAD_PER_MIN: z.coerce.number().int().positive().optional(),
  /**
   * Calls per minute and signed-in user of each route that calls the network or stores a list (page
   * registration, token exchange, marketing set-up and sync, checkout, recipient lists); 10,000 under NODE_ENV=test.
   */
  RATE_LIMIT_NETWORK_PER_MIN: z.coerce.number().int().positive().optional(),
  /** Total bytes of uploaded images kept in the database (default 1 GiB); past it uploads answer 507. */
  UPLOADS_MAX_TOTAL_BYTES: z.coerce.number().int().positive().default(1_073_741_824),
  SUPPORT_URL: z.string().url().default('https://m.me/pagecast.support'),
  AFFILIATE_SIGNUP_URL: z.string().url().default('https://affiliates.pagecast.app/signup'),
  AFFILIATE_LOGIN_URL: z.string().url().default('https://affiliates.pagecast.app/login'),
  /** A session unused for this many days ends (sliding: every use starts the period again). */
  SESSION_IDLE_DAYS: z.coerce.number().positive().max(3650).default(30),
  /**
   * How long one run of a server-held bulk job lasts before it yields to others (seconds). A run whose
   * instance died is taken over after about twice this plus 10 s (the job queue's expiry).
   */
  JOB_SLICE_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /**
   * How long a device's lease of a bulk job lasts without a heartbeat (seconds; the device renews it every
   * third of it). A "keep sending" job whose lease lapsed is taken by the server within a third of it more.
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(300).default(30),
  /**
   * Each page binding is checked again with the network (debug_token of its page token) once its last check is
   * this many minutes old, so a page role lost at the network ends access here within about this long.
   */
  PAGE_RECHECK_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Bulk pacing multiplier honoured only with the sandbox on; tests speed sends up with it. */
  PACING_SCALE: z.coerce.number().positive().max(1).default(1),
  /**
   * Web Push (VAPID) keys: the public key is an uncompressed P-256 point (65 bytes), the private key 32 bytes,
   * both base64url. Unset: generated once into DATA_DIR/vapid.json (refused in production with DATABASE_URL,
   * where instances would each make their own).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .refine((v) => base64urlBytes(v) === 65 && Buffer.from(v, 'base64url')[0] === 4, {
      message: 'must be the base64url form of an uncompressed P-256 public key (65 bytes)',
    })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .refine((v) => base64urlBytes(v) === 32, {
      message: 'must be the base64url form of a P-256 private key (32 bytes)',
    })
    .optional(),
  /** Who push services contact about this sender: a mailto: address or an https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:.+@.+|https:\/\/.+)$/, 'must be a mailto: address or an https:// URL')
    .optional(),
  /**
   * Key that seals the page tokens of jobs the server sends (AES-256-GCM): 32 bytes, base64. Unset: generated
   * once into DATA_DIR/token-encryption.key. Required in production with DATABASE_URL.
   */
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v.trim(), 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  /**
   * Server sender on: jobs the owner hands over (closing the app) and scheduled sends run on this instance's
   * share of the job queue. Off only for tests that do not need it.
   */
  SERVER_SENDER: bool.default(true),
  /** Server-held job runs side by side in one instance (each mostly waits out the pacing). */
  SERVER_SENDER_CONCURRENCY: z.coerce.number().int().positive().max(2000).default(16),
  /** Folder of the built app served at /. */
  STATIC_DIR: z.string().default('./dist'),
})

/** The byte length of a base64url string, or -1 when it is not one. */
function base64urlBytes(value: string): number {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return -1
  return Buffer.from(value, 'base64url').length
}

export type Env = z.infer<typeof schema>
export interface ServerConfig extends Env {
  publicUrl: string
  graphUrl: string
  sandboxEnabled: boolean
  /** VAPID_SUBJECT, or the public origin when it is https, or a local address for development. */
  vapidSubject: string
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    // One sentence naming each setting, never the schema's stack.
    const issues = parsed.error.issues.map((i) => {
      const message = i.message.replace(/\.$/, '')
      const name = i.path.join('.')
      return message.startsWith('must')
        ? `${name} ${message}`
        : `${name} is invalid (${message.toLowerCase()})`
    })
    throw new ConfigError(`Invalid configuration: ${issues.join('; ')}.`)
  }
  const e = parsed.data
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  const graphUrl = (e.GRAPH_URL ?? `${publicUrl}/sandbox/graph`).replace(/\/$/, '')
  if (e.PAYMENT_PROVIDER === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required with PAYMENT_PROVIDER=stripe.',
    )
  }
  const sandboxEnabled = e.SANDBOX ?? e.NODE_ENV !== 'production'
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together (one without the other cannot sign).',
    )
  }
  const vapidSubject =
    e.VAPID_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : 'mailto:push@localhost')
  // Test routes write any account's subscription: only a sandbox network's accounts, never production's.
  if (e.TEST_ROUTES && (e.NODE_ENV === 'production' || !sandboxEnabled || e.GRAPH_URL))
    throw new ConfigError(
      'Invalid configuration: TEST_ROUTES is only for tests with the sandbox as the network (never with NODE_ENV=production, SANDBOX=false or GRAPH_URL).',
    )
  if (e.NODE_ENV === 'production') {
    const missing: string[] = []
    // Without the sandbox nothing answers at its address: the app would be sent to a network that is not there.
    if (!sandboxEnabled && !e.GRAPH_URL)
      missing.push(
        "GRAPH_URL is required in production while the sandbox is off (the network's address, https://graph.facebook.com)",
      )
    // Every instance on one database must sign with the same keys, so none may make its own.
    if (e.DATABASE_URL && !e.VAPID_PUBLIC_KEY)
      missing.push(
        'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required with DATABASE_URL in production (generate them once with `npx web-push generate-vapid-keys`)',
      )
    if (e.DATABASE_URL && !e.TOKEN_ENCRYPTION_KEY)
      missing.push(
        'TOKEN_ENCRYPTION_KEY is required in production with DATABASE_URL (32 bytes, base64: openssl rand -base64 32)',
      )
    if (missing.length > 0) throw new ConfigError(`Invalid configuration: ${missing.join('; ')}.`)
  }
  if (e.NODE_ENV === 'production') {
    const defaults: string[] = []
    if (e.FB_APP_SECRET === DEFAULT_APP_SECRET) defaults.push('FB_APP_SECRET')
    if (e.WEBHOOK_VERIFY_TOKEN === DEFAULT_VERIFY_TOKEN) defaults.push('WEBHOOK_VERIFY_TOKEN')
    if (
      (sandboxEnabled || e.PAYMENT_PROVIDER === 'sandbox') &&
      e.SANDBOX_WEBHOOK_SECRET === DEFAULT_WEBHOOK_SECRET
    )
      defaults.push('SANDBOX_WEBHOOK_SECRET')
    if (defaults.length > 0) {
      const names = defaults.join(' and ')
      throw new ConfigError(
        `Invalid configuration: ${names} ${defaults.length > 1 ? 'are public defaults: set secrets of their own' : 'is the public default: set a secret of its own'} in production.`,
      )
    }
  }
  return { ...e, publicUrl, graphUrl, sandboxEnabled, vapidSubject }
}
