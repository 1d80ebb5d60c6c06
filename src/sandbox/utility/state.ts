/**
 * The utility-messages world of the sandbox: each page's template library (cloned from the network's library
 * or written by the page) with its review state, and the utility messages sent. `load()` empties it
 * (POST /sandbox/reset).
 */

export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED'

export interface PageTemplate {
  id: string
  pageId: string
  name: string
  language: string
  category: 'UTILITY'
  status: TemplateStatus
  /** The network's reason of a rejection; `NONE` otherwise. */
  rejectedReason: string
  body: string
  /** Sample values of the placeholders (`example.body_text`). */
  examples: string[]
  /** The network library's template it was cloned from. */
  libraryTemplateName?: string
  /** A pending review's timer (cleared by a new edit, a delete or a reset). */
  review?: NodeJS.Timeout
}

export interface UtilitySend {
  page_id: string
  recipient_id: string
  template_name: string
  language: string
  parameters: string[]
  /** The body with its placeholders filled: what the customer reads. */
  text: string
  message_id: string
  at: string
  atMs: number
}

/**
 * Words that make a body promotional (an offer, a price cut, a sale) in the languages of the sandbox's
 * library: a utility template with one of them is rejected as the wrong category.
 */
const PROMOTIONAL =
  /(\d+\s?%\s?(off|de descuento|diskon)|\b(discount|sale|coupon|promo(tion|tions)?|deals?|offers?|free gift|buy now|limited time|descuento|oferta|promoci[oó]n|rebaja|diskon|potongan harga|murah)\b|ছাড়|অফার|رعایت|سیل|آفر)/i

export function isPromotional(body: string): boolean {
  return PROMOTIONAL.test(body)
}

/** The network's reason for a utility template that reads as marketing. */
export const PROMOTIONAL_REASON = 'INCORRECT_CATEGORY'

export class UtilityState {
  templates = new Map<string, PageTemplate>()
  sends: UtilitySend[] = []
  private counter = 0

  load(): void {
    for (const t of this.templates.values()) if (t.review) clearTimeout(t.review)
    this.templates = new Map()
    this.sends = []
  }

  nextId(): string {
    this.counter += 1
    return String(2_045_000_000_000_000 + this.counter)
  }

  ofPage(pageId: string): PageTemplate[] {
    return [...this.templates.values()].filter((t) => t.pageId === pageId)
  }

  find(pageId: string, name: string, language?: string): PageTemplate | undefined {
    return this.ofPage(pageId).find((t) => t.name === name && (!language || t.language === language))
  }
}
