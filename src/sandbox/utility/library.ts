/**
 * The sandbox's copy of the network's utility template library (`GET /message_template_library`): a handful
 * of pre-approved templates for order, account, appointment and event updates, each in several languages, in
 * the library's published shape (name, language, category, topic, usecase, industry, body with `{{n}}`
 * placeholders, body_params as samples, body_param_types, id). Shapes: tests/fixtures/graph/utility/.
 */

export interface LibraryTemplate {
  id: string
  name: string
  language: string
  category: 'UTILITY'
  topic: string
  usecase: string
  industry: string[]
  body: string
  body_params: string[]
  body_param_types: string[]
}

interface Entry {
  name: string
  topic: string
  usecase: string
  industry: string[]
  types: string[]
  /** Body and sample parameters per language. */
  text: Record<string, [string, string[]]>
}

const ENTRIES: Entry[] = [
  {
    name: 'order_ready_1',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'ORDER_READY_FOR_PICKUP',
    industry: ['E_COMMERCE', 'FOOD_AND_BEVERAGE'],
    types: ['TEXT', 'TEXT'],
    text: {
      en_US: ['Hi {{1}}, your order {{2}} is ready for pickup.', ['Maya', '#1042']],
      es_MX: ['Hola {{1}}, tu pedido {{2}} está listo para recoger.', ['Maya', '#1042']],
      id: ['Halo {{1}}, pesanan {{2}} Anda siap diambil.', ['Maya', '#1042']],
      fil: ['Hi {{1}}, handa nang kunin ang order mo na {{2}}.', ['Maya', '#1042']],
      ur: ['{{1}}، آپ کا آرڈر {{2}} وصول کرنے کے لیے تیار ہے۔', ['مایا', '#1042']],
      bn: ['{{1}}, আপনার অর্ডার {{2}} নেওয়ার জন্য প্রস্তুত।', ['মায়া', '#1042']],
    },
  },
  {
    name: 'appointment_reminder_1',
    topic: 'APPOINTMENT',
    usecase: 'APPOINTMENT_REMINDER',
    industry: ['HEALTH', 'BEAUTY_AND_WELLNESS'],
    types: ['TEXT', 'DATE', 'TEXT'],
    text: {
      en_US: [
        'Hi {{1}}, this is a reminder of your appointment on {{2}} at {{3}}.',
        ['Maya', 'May 5', '10:00'],
      ],
      es_MX: ['Hola {{1}}, te recordamos tu cita el {{2}} a las {{3}}.', ['Maya', '5 de mayo', '10:00']],
      id: ['Halo {{1}}, ini pengingat janji temu Anda pada {{2}} pukul {{3}}.', ['Maya', '5 Mei', '10.00']],
      fil: ['Hi {{1}}, paalala ito ng appointment mo sa {{2}} nang {{3}}.', ['Maya', 'Mayo 5', '10:00']],
      ur: ['{{1}}، یاد دہانی: آپ کی ملاقات {{2}} کو {{3}} بجے ہے۔', ['مایا', '5 مئی', '10:00']],
      bn: ['{{1}}, মনে করিয়ে দিচ্ছি: আপনার অ্যাপয়েন্টমেন্ট {{2}} তারিখে {{3}}টায়।', ['মায়া', '৫ মে', '১০:০০']],
    },
  },
  {
    name: 'event_reminder_1',
    topic: 'EVENT',
    usecase: 'EVENT_REMINDER',
    industry: ['ENTERTAINMENT', 'EDUCATION'],
    types: ['TEXT', 'TEXT', 'DATE'],
    text: {
      en_US: [
        'Hi {{1}}, a reminder: {{2}} takes place on {{3}}.',
        ['Maya', 'the cake class', 'Saturday 10:00'],
      ],
      es_MX: [
        'Hola {{1}}, te recordamos: {{2}} es el {{3}}.',
        ['Maya', 'la clase de pasteles', 'sábado 10:00'],
      ],
      id: ['Halo {{1}}, pengingat: {{2}} berlangsung pada {{3}}.', ['Maya', 'kelas kue', 'Sabtu 10.00']],
      fil: ['Hi {{1}}, paalala: ang {{2}} ay sa {{3}}.', ['Maya', 'klase sa cake', 'Sabado 10:00']],
      ur: ['{{1}}، یاد دہانی: {{2}} {{3}} کو ہے۔', ['مایا', 'کیک کی کلاس', 'ہفتہ 10:00']],
      bn: ['{{1}}, মনে করিয়ে দিচ্ছি: {{2}} হবে {{3}}।', ['মায়া', 'কেকের ক্লাস', 'শনিবার ১০:০০']],
    },
  },
  {
    name: 'account_update_1',
    topic: 'ACCOUNT_UPDATE',
    usecase: 'ACCOUNT_CHANGE',
    industry: ['E_COMMERCE', 'FINANCIAL_SERVICES'],
    types: ['TEXT', 'TEXT'],
    text: {
      en_US: ['Hi {{1}}, your account was updated: {{2}}.', ['Maya', 'your delivery address changed']],
      es_MX: ['Hola {{1}}, tu cuenta se actualizó: {{2}}.', ['Maya', 'cambió tu dirección de entrega']],
      id: ['Halo {{1}}, akun Anda diperbarui: {{2}}.', ['Maya', 'alamat pengiriman berubah']],
      fil: ['Hi {{1}}, na-update ang account mo: {{2}}.', ['Maya', 'nagbago ang delivery address mo']],
      ur: ['{{1}}، آپ کا اکاؤنٹ اپ ڈیٹ ہوا: {{2}}۔', ['مایا', 'ڈیلیوری کا پتا بدل گیا']],
      bn: ['{{1}}, আপনার অ্যাকাউন্ট হালনাগাদ হয়েছে: {{2}}।', ['মায়া', 'ডেলিভারির ঠিকানা বদলেছে']],
    },
  },
]

/** Every library template, one per name and language, with a stable numeric id. */
export const LIBRARY: readonly LibraryTemplate[] = ENTRIES.flatMap((e, i) =>
  Object.entries(e.text).map(([language, [body, params]], j) => ({
    id: String(7138055039625000 + i * 100 + j),
    name: e.name,
    language,
    category: 'UTILITY' as const,
    topic: e.topic,
    usecase: e.usecase,
    industry: e.industry,
    body,
    body_params: params,
    body_param_types: e.types,
  })),
)

export interface LibraryQuery {
  search?: string
  language?: string
  topic?: string
  usecase?: string
  industry?: string
  name?: string
}

/** The library's filters: a substring of the name or body, and exact language, topic, use case, industry, name. */
export function searchLibrary(q: LibraryQuery): LibraryTemplate[] {
  const needle = q.search?.trim().toLowerCase()
  return LIBRARY.filter(
    (t) =>
      (!needle ||
        t.name.toLowerCase().includes(needle) ||
        t.name.replace(/_/g, ' ').includes(needle) ||
        t.body.toLowerCase().includes(needle)) &&
      (!q.language || t.language === q.language) &&
      (!q.topic || t.topic === q.topic) &&
      (!q.usecase || t.usecase === q.usecase) &&
      (!q.industry || t.industry.includes(q.industry)) &&
      (!q.name || t.name === q.name),
  )
}
