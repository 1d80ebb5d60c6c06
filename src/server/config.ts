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

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public origin of the app, used in checkout return URLs and upload URLs. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Sandbox on: the stand-in network (free logins, fault switches, test payments) is mounted at /sandbox and
   * the app talks to it. Default: on, except with NODE_ENV=production, where only SANDBOX=true turns it on.
   */
  SANDBOX: bool.optional(),
  SANDBOX_POLICY: z.enum(['current', 'legacy']).default('current'),
  SANDBOX_SEED: z.coerce.number().int().default(20260427),
  /** New customer messages arrive in the sandbox every N ms (0: never). */
  SANDBOX_LIVE_MS: z.coerce.number().int().nonnegative().default(0),
  MESSAGING_POLICY: z.enum(['current', 'legacy']).default('current'),
  HUMAN_AGENT_ENABLED: bool.default(false),
  GRAPH_URL: z.string().url().optional(),
  GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default('v25.0'),
  FB_APP_ID: z.string().default('sandbox-app'),
  FB_APP_SECRET: z.string().default(DEFAULT_APP_SECRET),
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
  /** Total bytes of uploaded images kept in the database (default 1 GiB); past it uploads answer 507. */
  UPLOADS_MAX_TOTAL_BYTES: z.coerce.number().int().positive().default(1_073_741_824),
  SUPPORT_URL: z.string().url().default('https://m.me/pagecast.support'),
  AFFILIATE_SIGNUP_URL: z.string().url().default('https://affiliates.pagecast.app/signup'),
  AFFILIATE_LOGIN_URL: z.string().url().default('https://affiliates.pagecast.app/login'),
  /** A session unused for this many days ends (sliding: every use starts the period again). */
  SESSION_IDLE_DAYS: z.coerce.number().positive().max(3650).default(30),
  /** Bulk pacing multiplier honoured only with the sandbox on; tests speed sends up with it. */
  PACING_SCALE: z.coerce.number().positive().max(1).default(1),
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
  SERVER_SENDER_CONCURRENCY: z.coerce.number().int().positive().max(500).default(16),
  /** Folder of the built app served at /. */
  STATIC_DIR: z.string().default('./dist'),
})

export type Env = z.infer<typeof schema>
export interface ServerConfig extends Env {
  publicUrl: string
  graphUrl: string
  sandboxEnabled: boolean
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  const graphUrl = (e.GRAPH_URL ?? `${publicUrl}/sandbox/graph`).replace(/\/$/, '')
  if (e.PAYMENT_PROVIDER === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required with PAYMENT_PROVIDER=stripe',
    )
  }
  const sandboxEnabled = e.SANDBOX ?? e.NODE_ENV !== 'production'
  if (e.NODE_ENV === 'production') {
    const defaults: string[] = []
    if (e.FB_APP_SECRET === DEFAULT_APP_SECRET) defaults.push('FB_APP_SECRET')
    if (
      (sandboxEnabled || e.PAYMENT_PROVIDER === 'sandbox') &&
      e.SANDBOX_WEBHOOK_SECRET === DEFAULT_WEBHOOK_SECRET
    )
      defaults.push('SANDBOX_WEBHOOK_SECRET')
    if (e.DATABASE_URL && !e.TOKEN_ENCRYPTION_KEY) {
      throw new ConfigError(
        'Invalid configuration:\n  TOKEN_ENCRYPTION_KEY is required in production with DATABASE_URL (32 bytes, base64: openssl rand -base64 32)',
      )
    }
    if (defaults.length > 0) {
      const lines = defaults.map(
        (name) => `  ${name} is the public default: set a secret of its own in production`,
      )
      throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
    }
  }
  return { ...e, publicUrl, graphUrl, sandboxEnabled }
}
