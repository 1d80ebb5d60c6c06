/**
 * Web Push: the bodies of `/api/v2/push/*` and the payload a push carries to the service worker. Shared by
 * the server (validation), the app (its calls) and the service worker (what it reads from a push).
 */
import { z } from './zod.ts'
import { type LocaleCode, isLocaleCode, localeDir, locales } from '../constants/locales.ts'

/** The languages a device can ask its notifications in (the app's languages). */
export type PushLocale = LocaleCode
export { isLocaleCode as isPushLocale, localeDir as pushLocaleDir }

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/

/** The byte length of a base64url string (padding allowed), or -1 when it is not base64url. */
export function base64urlLength(value: string): number {
  if (!BASE64URL.test(value)) return -1
  const bare = value.replace(/=+$/, '')
  if (bare.length % 4 === 1) return -1
  return Math.floor((bare.length * 3) / 4)
}

const key = (bytes: number, what: string) =>
  z
    .string({ error: 'Required' })
    .check(
      z.refine((v) => base64urlLength(v) === bytes, `The ${what} key must be ${bytes} bytes in base64url.`),
    )

export const pushSubscriptionBody = z.strictObject({
  endpoint: z.string({ error: 'Required' }).check(z.minLength(1, 'Required'), z.maxLength(2048)),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.strictObject({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: key(65, 'p256dh'),
    /** The authentication secret (16 bytes). */
    auth: key(16, 'auth'),
  }),
  device: z.optional(z.string().check(z.maxLength(200))),
  locale: z.optional(z.enum(locales.map((l) => l.code) as [string, ...string[]])),
  /**
   * Only brings a subscription the server already holds for this user up to date (the app's check at
   * start): one it does not hold (the device signed out since) is not stored again.
   */
  refresh: z.optional(z.boolean()),
})
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>

export const pushUnsubscribeBody = z.strictObject({
  endpoint: z.string({ error: 'Required' }).check(z.minLength(1, 'Required'), z.maxLength(2048)),
})

export const pushSettings = z.strictObject({ hideText: z.boolean({ error: 'Must be true or false' }) })
export type PushSettings = z.infer<typeof pushSettings>

export const pushKeyResponse = z.object({ publicKey: z.string() })

/** What a push carries (JSON, encrypted by the push protocol); every text in it is already in the device's language. */
export interface MessagePushPayload {
  type: 'message'
  pageId: string
  customerId: string
  conversationKey?: string
  /** The customer's name. */
  title: string
  /** The message text, or a neutral line when the owner hides texts or the message has no text. */
  body: string
  pageName: string
  /** The conversation in the app: `/<pageId>?chat="<customerId>"` (quoted: the router reads search values as JSON). */
  url: string
  /** One notification per conversation: `conv:<pageId>:<customerId>`. */
  tag: string
  lang: string
  dir: 'ltr' | 'rtl'
}

/** Any other notice for one user (a finished job…): already worded for the device. */
export interface NoticePushPayload {
  type: 'notice'
  title: string
  body: string
  url: string
  tag?: string
  lang?: string
  dir?: 'ltr' | 'rtl'
}

export type PushPayload = MessagePushPayload | NoticePushPayload
