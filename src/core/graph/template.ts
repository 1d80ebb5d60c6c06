/**
 * Utility messages (docs/utility-messages.md): a message made from a template the network approved, sent
 * outside the 24-hour window for an order or account update or an appointment or event reminder. A template's
 * body holds positional placeholders `{{1}}`, `{{2}}`, … filled in at the send, in order, from its parameters.
 * This module is the one reading of a body both the app and the senders keep.
 */

/** The network's limit on a template body. */
export const TEMPLATE_BODY_MAX = 1024
/** A parameter's value, as the Send API takes it. */
export const TEMPLATE_PARAM_MAX = 200
/** Names: lowercase letters, digits and underscores (the network's rule for template names). */
export const TEMPLATE_NAME_PATTERN = /^[a-z0-9_]{1,512}$/
/**
 * The languages Pagecast offers for a page's templates: the network's codes for the interface languages it
 * has templates in (Khmer has none in the network's list; a Khmer-speaking owner picks one of these).
 */
export const TEMPLATE_LANGUAGES = ['en_US', 'es_MX', 'id', 'fil', 'ur', 'bn'] as const
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number]

/** The template language closest to an interface language. */
export function templateLanguageFor(locale: string): TemplateLanguage {
  const lang = locale.split(/[-_]/)[0]
  const found = TEMPLATE_LANGUAGES.find((l) => l.split('_')[0] === lang)
  return found ?? 'en_US'
}

/** How many parameters a body takes: its highest placeholder number (0 without any). */
export function placeholderCount(body: string): number {
  let max = 0
  for (const m of body.matchAll(/\{\{(\d+)\}\}/g)) max = Math.max(max, Number(m[1]))
  return max
}

/** Why a body cannot be a template (placeholders must be {{1}}…{{n}} without a gap), or undefined. */
export function bodyProblem(body: string): 'empty' | 'too_long' | 'placeholders' | undefined {
  if (!body.trim()) return 'empty'
  if (body.length > TEMPLATE_BODY_MAX) return 'too_long'
  const seen = new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))
  for (let i = 1; i <= seen.size; i++) if (!seen.has(i)) return 'placeholders'
  return seen.size === placeholderCount(body) ? undefined : 'placeholders'
}

/** The body with each `{{n}}` replaced by the n-th parameter (a missing one stays as it is). */
export function fillBody(body: string, params: readonly string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => params[Number(n) - 1] ?? whole)
}

/** Every placeholder has a value. */
export function paramsComplete(body: string, params: readonly string[]): boolean {
  const count = placeholderCount(body)
  return params.length >= count && params.slice(0, count).every((p) => p.trim().length > 0)
}

/** What a utility send carries: the page's approved template, its language and its parameters. */
export interface UtilityContent {
  /** The template's name in the page's library. */
  name: string
  language: string
  /** The template body, kept for the preview and the conversation's text. */
  body: string
  /** One value per placeholder; may hold `{first name}` (delivery.ts's FIRST_NAME_TOKEN), filled per recipient. */
  params: string[]
}
