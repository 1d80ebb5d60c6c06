/**
 * What the owner's devices are told when a job the server was sending ends or needs them (the server
 * sender's `OwnerNotifier`), worded in each device's language.
 */
import type { NoticePushPayload, PushLocale } from '../../core/contracts/push.ts'
import { isPushLocale, pushLocaleDir } from '../../core/contracts/push.ts'
import { intlLocale } from '../../core/format/intl-locale.ts'
import { formatNumber } from '../../core/format/numbers.ts'
import type { OwnerEvent, OwnerNotifier } from '../bulk/server-sender.ts'
import type { PushSubscriptionRow } from '../repo/push.ts'
import { notifyUser, type PushDeps } from './notify.ts'

interface JobTexts {
  finishedTitle: string
  /** The count as written in the language, and its plural category there (CLDR). */
  finishedBody: (sent: string, category: Intl.LDMLPluralRule) => string
  stoppedTitle: string
  stoppedBody: string
  tokenTitle: string
  tokenBody: string
}

export const JOB_TEXTS: Record<PushLocale, JobTexts> = {
  en: {
    finishedTitle: 'Bulk message sent',
    finishedBody: (n, c) => (c === 'one' ? `Sent to ${n} customer.` : `Sent to ${n} customers.`),
    stoppedTitle: 'Bulk message stopped',
    stoppedBody: 'Open Pagecast to see why.',
    tokenTitle: 'Bulk message paused',
    tokenBody: 'Reconnect this page to continue sending.',
  },
  es: {
    finishedTitle: 'Mensaje masivo enviado',
    finishedBody: (n, c) =>
      c === 'one'
        ? `Enviado a ${n} cliente.`
        : c === 'many'
          ? `Enviado a ${n} de clientes.`
          : `Enviado a ${n} clientes.`,
    stoppedTitle: 'Mensaje masivo detenido',
    stoppedBody: 'Abre Pagecast para ver por qué.',
    tokenTitle: 'Mensaje masivo en pausa',
    tokenBody: 'Vuelve a conectar esta página para seguir enviando.',
  },
  km: {
    finishedTitle: 'បានផ្ញើសារជាដុំ',
    finishedBody: (n) => `បានផ្ញើទៅអតិថិជន ${n} នាក់។`,
    stoppedTitle: 'សារជាដុំបានឈប់',
    stoppedBody: 'បើក Pagecast ដើម្បីមើលមូលហេតុ។',
    tokenTitle: 'សារជាដុំបានផ្អាក',
    tokenBody: 'ភ្ជាប់ទំព័រនេះម្តងទៀត ដើម្បីបន្តផ្ញើ។',
  },
  id: {
    finishedTitle: 'Pesan massal terkirim',
    finishedBody: (n) => `Terkirim ke ${n} pelanggan.`,
    stoppedTitle: 'Pesan massal berhenti',
    stoppedBody: 'Buka Pagecast untuk melihat alasannya.',
    tokenTitle: 'Pesan massal dijeda',
    tokenBody: 'Hubungkan ulang halaman ini untuk melanjutkan pengiriman.',
  },
  fil: {
    finishedTitle: 'Naipadala ang bulk message',
    finishedBody: (n) => `Naipadala sa ${n} customer.`,
    stoppedTitle: 'Huminto ang bulk message',
    stoppedBody: 'Buksan ang Pagecast para makita kung bakit.',
    tokenTitle: 'Naka-pause ang bulk message',
    tokenBody: 'Ikonektang muli ang page na ito para magpatuloy sa pagpapadala.',
  },
  ur: {
    finishedTitle: 'بلک پیغام بھیج دیا گیا',
    finishedBody: (n, c) => (c === 'one' ? `${n} صارف کو بھیجا گیا۔` : `${n} صارفین کو بھیجا گیا۔`),
    stoppedTitle: 'بلک پیغام رک گیا',
    stoppedBody: 'وجہ دیکھنے کے لیے Pagecast کھولیں۔',
    tokenTitle: 'بلک پیغام روک دیا گیا',
    tokenBody: 'بھیجنا جاری رکھنے کے لیے یہ پیج دوبارہ جوڑیں۔',
  },
  bn: {
    finishedTitle: 'বাল্ক বার্তা পাঠানো হয়েছে',
    finishedBody: (n) => `${n} জন গ্রাহককে পাঠানো হয়েছে।`,
    stoppedTitle: 'বাল্ক বার্তা থেমে গেছে',
    stoppedBody: 'কারণ দেখতে Pagecast খুলুন।',
    tokenTitle: 'বাল্ক বার্তা বিরতিতে',
    tokenBody: 'পাঠানো চালিয়ে যেতে এই পেজটি আবার সংযুক্ত করুন।',
  },
}

/** The notice for one event in one device's language. */
export function jobNoticePayload(event: OwnerEvent, locale: string): NoticePushPayload {
  const lang: PushLocale = isPushLocale(locale) ? locale : 'en'
  const texts = JOB_TEXTS[lang]
  const base = { tag: `job:${event.messageId}`, lang, dir: pushLocaleDir(lang) }
  switch (event.kind) {
    case 'finished':
      return {
        type: 'notice',
        title: texts.finishedTitle,
        body: texts.finishedBody(
          formatNumber(event.sent, lang),
          new Intl.PluralRules(intlLocale(lang)).select(event.sent),
        ),
        url: '/',
        ...base,
      }
    case 'stopped':
      return { type: 'notice', title: texts.stoppedTitle, body: texts.stoppedBody, url: '/', ...base }
    case 'needs_token':
      return {
        type: 'notice',
        title: texts.tokenTitle,
        body: texts.tokenBody,
        url: `/${encodeURIComponent(event.pageId)}`,
        ...base,
      }
  }
}

/** The server sender's notifier through Web Push; a failed push is logged by `notifyUser`, never thrown. */
export function pushOwnerNotifier(deps: PushDeps): OwnerNotifier {
  return async (userId, event) => {
    await notifyUser(deps, userId, (sub: PushSubscriptionRow) => jobNoticePayload(event, sub.locale), {
      urgency: 'normal',
    }).catch(() => undefined)
  }
}
