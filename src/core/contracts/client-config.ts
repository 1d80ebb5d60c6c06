/** What the app learns from the server at start-up (`GET /api/v2/config`); nothing secret ever goes here. */
import { z } from './zod.ts'

export const clientConfig = z.object({
  /** Which social SDK adapter the app uses. */
  social: z.enum(['facebook', 'sandbox']),
  fbAppId: z.string(),
  /** Base of the Graph API the browser calls with page tokens, e.g. https://graph.facebook.com */
  graphUrl: z.string(),
  graphVersion: z.string().check(z.regex(/^v\d+\.\d+$/)),
  messagingPolicy: z.enum(['current', 'legacy']),
  humanAgentEnabled: z.boolean(),
  supportUrl: z.string(),
  affiliateSignupUrl: z.string(),
  affiliateLoginUrl: z.string(),
  /** Multiplies the bulk pacing; always 1 unless the sandbox is on (tests may speed it up). */
  pacingScale: z.number().check(z.positive(), z.lte(1)),
})
export type ClientConfig = z.infer<typeof clientConfig>
