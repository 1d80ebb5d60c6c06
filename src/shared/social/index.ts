/** Picks the social adapter the server's config names; the app never branches on the network itself. */
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import { createFacebookSdk } from './facebook.ts'
import { createSandboxSdk } from './sandbox.ts'
import type { SocialSdk } from './types.ts'

export function createSocialSdk(
  config: Pick<ClientConfig, 'social' | 'fbAppId' | 'graphVersion'>,
): SocialSdk {
  return config.social === 'facebook'
    ? createFacebookSdk({ appId: config.fbAppId, graphVersion: config.graphVersion })
    : createSandboxSdk({ appId: config.fbAppId })
}

export type { LoginResponse, SocialSdk } from './types.ts'
export { grantedScopes, NOT_CONNECTED } from './types.ts'
