/**
 * Errors of the Marketing Message API for Messenger as the sandbox answers them. The API reference gives only
 * each number and its description; like Pagecast's client, the sandbox puts the number in the usual Graph body:
 * `{error:{message:"<description>", type:"OAuthException", code:2300000, fbtrace_id}}`. Permission, parameter,
 * window and throttling errors are the Graph API's usual ones; the opt-in request errors are the Messenger
 * error-code reference's.
 */
import { SandboxGraphError } from '../graph-error.ts'

/** The API's documented error numbers the sandbox produces (namespace MARKETING_MESSAGES_DIRECT). */
export const MM_CODES = {
  INACTIVE_CAMPAIGN: 2300000,
  INVALID_MESSAGE_ID: 2300001,
  INVALID_MESSENGER_SUBSCRIPTION_TOKEN: 2300004,
  PAGE_ID_MISMATCH: 2300005,
  NO_BUDGET: 2300007,
  INVALID_PAYLOAD: 2300010,
  AD_ACCOUNT_MISMATCH: 2300014,
  AD_ACCOUNT_REGION: 2300030,
  MIN_DELAY: 2300035,
  LIFETIME_BUDGET_REACHED: 2300053,
  DAILY_BUDGET_REACHED: 2300054,
  PAGE_ID_MISSING: 2300065,
} as const

const mm = (message: string, code: number) =>
  new SandboxGraphError(message, code, undefined, 400, 'OAuthException')

export const mmErrors = {
  inactiveCampaign: () => mm('Campaign is not active.', MM_CODES.INACTIVE_CAMPAIGN),
  invalidMessageId: () => mm('Message id is invalid.', MM_CODES.INVALID_MESSAGE_ID),
  invalidToken: () =>
    mm('Messenger subscription token could not be loaded.', MM_CODES.INVALID_MESSENGER_SUBSCRIPTION_TOKEN),
  pageMismatch: () =>
    mm(
      'The page of the message is different from the page of the subscription token.',
      MM_CODES.PAGE_ID_MISMATCH,
    ),
  noBudget: () => mm('Neither lifetime_budget nor daily_budget is set.', MM_CODES.NO_BUDGET),
  invalidPayload: (detail: string) =>
    mm(`No valid creative or message payload: ${detail}`, MM_CODES.INVALID_PAYLOAD),
  adAccountMismatch: () =>
    mm(
      'The ad account of the campaign is different from the ad account of the request.',
      MM_CODES.AD_ACCOUNT_MISMATCH,
    ),
  adAccountRegion: (country: string) =>
    mm(
      `Marketing messages are not available for ad accounts in this region (${country}).`,
      MM_CODES.AD_ACCOUNT_REGION,
    ),
  minDelay: () =>
    mm(
      'The minimum delay between two marketing messages to this subscription token has not passed.',
      MM_CODES.MIN_DELAY,
    ),
  lifetimeBudgetReached: () =>
    mm('The lifetime budget of the campaign has been reached.', MM_CODES.LIFETIME_BUDGET_REACHED),
  dailyBudgetReached: () =>
    mm(
      'The daily budget of the campaign has been reached; sending resumes tomorrow.',
      MM_CODES.DAILY_BUDGET_REACHED,
    ),
  pageIdMissing: () => mm('The page id is missing.', MM_CODES.PAGE_ID_MISSING),
  /** A token without a permission the call needs (App Review permissions of the API). */
  needsPermission: (permission: string) =>
    new SandboxGraphError(`(#200) Requires ${permission} permission to manage the object`, 200),
  accountNotActive: (status: number) =>
    new SandboxGraphError(`(#200) The ad account is not active (account_status ${status}).`, 200),
  /** Below `min_daily_budget_imp` (daily) or 30 times it (lifetime). */
  budgetTooLow: (min: number) =>
    new SandboxGraphError(
      `(#100) The budget is too low: at least ${min} (in the currency's smallest unit).`,
      100,
      1885272,
    ),
  /** The same title to the same person within 7 days (Messenger error-code reference). */
  optinWeeklyLimit: () =>
    new SandboxGraphError(
      '(#613) Scope of service exceeded: You may not send multiple opt-in requests with the same topic to a user.',
      613,
      1893016,
    ),
}
