/** The utility templates' query keys: a module of its own, so the live stream's code can name them without the templates' code. */
export const templatesKeyRoot = ['templates'] as const

/** The query key of a page's utility templates (src/shared/utility/api.ts). */
export const templatesKey = (pageId: string) => [...templatesKeyRoot, pageId] as const

/** The query key of the network's template library, read for one search and one language. */
export const libraryKey = (search: string, language: string) =>
  ['template-library', search.trim(), language] as const
