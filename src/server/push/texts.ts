/**
 * The few words the server puts in a notification, in each app language. The server words the notification
 * (instead of the service worker) because it knows the device's language, sent with the subscription, while
 * a service worker cannot read the language chosen in the app; the record type makes a missing language a
 * type error.
 */
import type { PushLocale } from '../../core/contracts/push.ts'

export interface PushTexts {
  /** The body when the owner hides message texts. */
  newMessage: string
  /** The body of a message without text (a photo, a sticker, a file). */
  attachment: string
}

export const PUSH_TEXTS: Record<PushLocale, PushTexts> = {
  en: { newMessage: 'New message', attachment: 'Sent an attachment' },
  es: { newMessage: 'Mensaje nuevo', attachment: 'Envió un archivo adjunto' },
  km: { newMessage: 'សារថ្មី', attachment: 'បានផ្ញើឯកសារភ្ជាប់' },
  id: { newMessage: 'Pesan baru', attachment: 'Mengirim lampiran' },
  fil: { newMessage: 'Bagong mensahe', attachment: 'Nagpadala ng attachment' },
  ur: { newMessage: 'نیا پیغام', attachment: 'ایک اٹیچمنٹ بھیجی' },
  bn: { newMessage: 'নতুন বার্তা', attachment: 'একটি সংযুক্তি পাঠিয়েছেন' },
}
