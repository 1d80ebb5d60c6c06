/** Graph error objects as the network answers them: `{error:{message,type,code,error_subcode,fbtrace_id}}`. */
import { randomBytes } from 'node:crypto'

export class SandboxGraphError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly subcode?: number,
    readonly httpStatus = 400,
    readonly type = 'OAuthException',
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }

  body(): { error: Record<string, unknown> } {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode !== undefined ? { error_subcode: this.subcode } : {}),
        ...this.extra,
        fbtrace_id: fbtraceId(),
      },
    }
  }
}

export function fbtraceId(): string {
  return randomBytes(8).toString('base64').replace(/[+/=]/g, '').slice(0, 11)
}

export const errors = {
  noToken: () => new SandboxGraphError('An access token is required to request this resource.', 104),
  badToken: () => new SandboxGraphError('Invalid OAuth access token - Cannot parse access token', 190),
  expired: (at: number, now: number) =>
    new SandboxGraphError(
      `Error validating access token: Session has expired on ${new Date(at).toUTCString()}. The current time is ${new Date(now).toUTCString()}.`,
      190,
      463,
    ),
  /** A page token whose user no longer has a role on the page (removed as admin, or the task taken away). */
  roleLost: () =>
    new SandboxGraphError('The user must be an administrator of the page in order to impersonate it.', 190),
  needsPageToken: () =>
    new SandboxGraphError('(#190) This method must be called with a Page Access Token', 190),
  unknownObject: (id: string) =>
    new SandboxGraphError(
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      100,
      33,
      400,
      'GraphMethodException',
    ),
  invalidParam: (detail?: string) =>
    new SandboxGraphError(detail ? `(#100) ${detail}` : '(#100) Invalid parameter', 100),
  noMatchingUser: () => new SandboxGraphError('(#100) No matching user found', 100, 2018001),
  needsMessaging: () =>
    new SandboxGraphError('(#230) Requires pages_messaging permission to manage the object', 230),
  needsMetadata: () =>
    new SandboxGraphError('(#200) Requires pages_manage_metadata permission to manage the object', 200),
  needsReadPermissions: () =>
    new SandboxGraphError(
      '(#200) Requires pages_read_engagement and pages_manage_metadata permission to manage the object',
      200,
    ),
  blocked: () => new SandboxGraphError("(#551) This person isn't available right now.", 551, 1545041),
  cannotReply: () =>
    new SandboxGraphError("(#200) This person isn't receiving messages from you right now.", 200, 1545041),
  outsideWindow: () =>
    new SandboxGraphError(
      '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview',
      10,
      2018278,
    ),
  noHumanAgent: () =>
    new SandboxGraphError('(#10) Application does not have the capability to make this API call.', 10),
  rateLimited: () => new SandboxGraphError('(#613) Calls to this api have exceeded the rate limit.', 613),
  transient: (alt: boolean) =>
    alt
      ? new SandboxGraphError('An unknown error occurred', 1, undefined, 500)
      : new SandboxGraphError(
          'An unexpected error has occurred. Please retry your request later.',
          2,
          undefined,
          500,
          'OAuthException',
          {
            is_transient: true,
          },
        ),
  badVersion: (v: string) => new SandboxGraphError(`Unknown path components: /${v}`, 2500),
  appMismatch: () =>
    new SandboxGraphError('Error validating client secret.', 1, undefined, 400, 'OAuthException'),
}
