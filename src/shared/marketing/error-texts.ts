/**
 * What each marketing-messages failure says to the page's owner, in their language: every error the network
 * documents for the Marketing Message API for Messenger (by the name errors.ts gives its codes) and
 * Pagecast's own refusals. A job stopped for one reads `marketing:<name>` (failure-policy.ts); the bulk card
 * and the marketing settings show `marketingErrorText(name)`.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { MarketingErrorName } from '../../core/graph/errors.ts'

const TEXTS: Record<MarketingErrorName, MessageDescriptor> = {
  inactive_campaign: msg`The marketing campaign is paused or no longer active, so sending stopped.`,
  invalid_message: msg`Facebook no longer knows this campaign's message, so sending stopped.`,
  inactive_message_set: msg`The campaign's message set is not active, so sending stopped.`,
  inactive_message: msg`The campaign's message is not active, so sending stopped.`,
  invalid_token: msg`This customer is no longer subscribed.`,
  page_mismatch: msg`A subscription belongs to another page. Pages can only message their own subscribers.`,
  campaign_setup: msg`Facebook refused how the campaign was set up. Start the send again.`,
  invalid_content: msg`Facebook refused the message content. Check the text, image and links.`,
  payment_method_missing: msg`The ad account has no payment method. Add one in its payment settings.`,
  campaign_not_ready: msg`The campaign is not ready yet. Sending will try again shortly.`,
  terms_not_accepted: msg`The terms of service for marketing messages have not been accepted for this page or ad account.`,
  budget_spent: msg`The campaign's budget is spent, so sending stopped.`,
  daily_budget_reached: msg`Today's budget is spent. Raise the daily budget or send again tomorrow.`,
  account_spend_limit: msg`The ad account reached its spending limit. Raise or reset it in the payment settings.`,
  balance_empty: msg`The ad account's prepaid balance has run out. Add funds to continue.`,
  region_unsupported: msg`The page or ad account is in a region where marketing messages are not offered.`,
  subscriber_region: msg`Marketing messages cannot reach this customer's region.`,
  subscriber_stopped: msg`This customer stopped marketing messages.`,
  token_expired: msg`This customer's subscription has expired.`,
  frequency_limit: msg`This customer has received enough marketing messages for now.`,
  recipient_unavailable: msg`This customer cannot receive messages right now.`,
  page_permission: msg`The page's permission for marketing messages is missing. Turn marketing messages on again.`,
  feature_unavailable: msg`Marketing messages are not available right now.`,
  try_later: msg`Facebook could not send right now. Sending will try again later.`,
  rate_limited: msg`Too many requests to Facebook. Sending slows down and continues.`,
  optin_weekly_limit: msg`This customer was already asked with this title in the last 7 days.`,
  optin_request_limit: msg`Too many subscription requests were sent to this customer.`,
  optin_restricted: msg`Facebook has temporarily restricted this page from asking customers to subscribe.`,
  outside_window: msg`A subscription request can only be sent within 24 hours of the customer's last message.`,
  marketing_unknown: msg`Facebook refused the marketing message.`,
  region_unavailable: msg`Marketing messages are not offered to businesses in this ad account's country.`,
  permission_declined: msg`The permissions marketing messages need were not granted.`,
  no_ad_account: msg`You have no ad account to pay for marketing messages. Create one on Facebook first.`,
  ad_account_inactive: msg`This ad account is not active, so it cannot pay for marketing messages.`,
  budget_too_small: msg`The budget is too small for this send.`,
  marketing_off: msg`Marketing messages are off for this page. Turn them on in the page's marketing messages settings.`,
  not_subscribed: msg`This customer no longer subscribes to marketing messages, so nothing was sent.`,
  server_only: msg`Marketing messages are sent by the server. This send goes on there.`,
}

export function marketingErrorText(name: MarketingErrorName): MessageDescriptor {
  return TEXTS[name]
}
