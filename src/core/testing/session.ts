/** What the session tests share: a client configuration and a subscription, as the server answers them. */
import type { SubscriptionState } from '../contracts/api.ts'
import type { ClientConfig } from '../contracts/client-config.ts'

export const testClientConfig: ClientConfig = {
  social: 'sandbox',
  fbAppId: 'sandbox-app',
  graphUrl: '/sandbox/graph',
  graphVersion: 'v25.0',
  messagingPolicy: 'current',
  humanAgentEnabled: false,
  supportUrl: 'https://example.test/support',
  affiliateSignupUrl: 'https://example.test/signup',
  affiliateLoginUrl: 'https://example.test/login',
  pacingScale: 1,
}

/** A paid subscription with 10 messages left, of the user with facebook id 1 unless told otherwise. */
export function testSubscription(over: Partial<SubscriptionState> = {}): SubscriptionState {
  return {
    access: true,
    access_type: 'paid',
    accepted_terms: true,
    facebook_id: '1',
    is_unlimited: false,
    unlimited_blocked: false,
    available_messages: 10,
    subscriptions_messages: 10,
    addons_messages: 0,
    use_branded_messages: false,
    ...over,
  }
}

/** A subscription with this many messages left, its allowance all from the plan. */
export function subscription(available: number, branded = false): SubscriptionState {
  return testSubscription({
    available_messages: available,
    subscriptions_messages: available,
    use_branded_messages: branded,
  })
}
