/**
 * Payloads and responses of the product API (`/api/v2`, spec section 7). The server validates every body
 * with these schemas; the app builds its payloads with the same types.
 */
import { z } from 'zod'
import { MESSAGE_TEXT_MAX } from '../constants/limits.ts'

export const loginBody = z
  .object({
    access_token: z.string().min(1).max(4096),
    referral: z.string().max(100).nullish(),
    coupon: z.string().max(100).nullish(),
  })
  .strict()
export type LoginBody = z.infer<typeof loginBody>

export const subscriptionState = z.object({
  access: z.boolean(),
  access_type: z.enum(['trial', 'paid']).nullable(),
  accepted_terms: z.boolean(),
  facebook_id: z.string(),
  is_unlimited: z.boolean(),
  unlimited_blocked: z.boolean(),
  available_messages: z.number().int(),
  subscriptions_messages: z.number().int(),
  addons_messages: z.number().int(),
  use_branded_messages: z.boolean(),
  referral: z.string().nullable().optional(),
  coupon: z.string().nullable().optional(),
})
export type SubscriptionState = z.infer<typeof subscriptionState>

export const apiUser = z.object({
  id: z.string(),
  facebook_id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  subscription: subscriptionState,
})
export type ApiUser = z.infer<typeof apiUser>

export const loginResponse = z.object({ data: z.object({ token: z.string(), user: apiUser }) })
export type LoginResponse = z.infer<typeof loginResponse>

export const mySubscription = z.object({
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  product: z.string(),
  /** USD */
  amount: z.number(),
  created: z.string(),
})
export type MySubscription = z.infer<typeof mySubscription>

export const confirmBrandedBody = z.object({ use_branded_messages: z.literal(true) }).strict()

export const pageBody = z
  .object({
    id: z.string().regex(/^\d{1,32}$/),
    name: z.string().min(1).max(300),
    category: z.string().max(300).nullish(),
    picture: z.string().max(2048).nullish(),
    fan_count: z.number().int().nonnegative().nullish(),
  })
  .strict()
export type PageBody = z.infer<typeof pageBody>

export const extendTokenBody = z.object({ access_token: z.string().min(1).max(4096), page_id: z.string().optional() }).strict()

export const createMessageBody = z
  .object({
    page_id: z.string().regex(/^\d{1,32}$/),
    message_type_id: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    message: z.string().min(1).max(MESSAGE_TEXT_MAX),
    image_url: z.string().url().max(2048).nullish(),
    label: z.string().max(2000),
    tag: z.string().max(64).nullish(),
    total_messages: z.number().int().positive().max(1_000_000),
    branded_messages_amount: z.number().int().nonnegative().max(1_000_000),
  })
  .strict()
export type CreateMessageBody = z.infer<typeof createMessageBody>

export const touchBody = z
  .object({
    _method: z.literal('PUT'),
    status: z.enum(['OK', 'NG']),
    recipient_id: z.string().min(1).max(64),
    error_data: z
      .object({
        error_message: z.string().max(4000),
        recipent_id: z.string().max(64),
        recipent_name: z.string().max(300).optional(),
      })
      .nullish(),
    sent_as_branded: z.boolean().default(false),
  })
  .strict()
export type TouchBody = z.input<typeof touchBody>

export const touchResponse = z.object({ available_messages: z.number().int(), subscription: subscriptionState })
export type TouchResponse = z.infer<typeof touchResponse>

export const checkoutBody = z
  .object({
    price_id: z.string().min(1).max(100),
    is_addon: z.boolean().optional(),
    success_url: z.string().url().max(2048),
    cancel_url: z.string().url().max(2048),
    referral: z.string().max(100).nullish(),
    coupon: z.string().max(100).nullish(),
  })
  .strict()
export type CheckoutBody = z.infer<typeof checkoutBody>

export const cancelSubscriptionBody = z
  .object({ cancellation_reason: z.string({ error: 'Required' }).trim().min(1, 'Required').max(2000) })
  .strict()

export const termsResponse = z.object({ content: z.string(), created_at: z.string() })
export type Terms = z.infer<typeof termsResponse>

/** The error bodies of spec section 8. */
export interface ApiErrorBody {
  message: string
  errors?: Record<string, string[]>
}
