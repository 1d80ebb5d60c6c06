/**
 * The Graph calls of utility messages (Messenger Platform, "Send a utility message"; docs/utility-messages.md):
 * the network's template library, the page's own templates (clone, create, edit, delete) and, through the
 * Send API (client.ts `send` with `utility`), the message itself. Every call needs a page token with
 * `page_utility_messaging`; a refusal is a classified GraphError as everywhere else.
 */
import { createGraphTransport, type GraphClientOptions } from './client.ts'

/** Asked for when the owner first uses a template (incremental login), never at the first login. */
export const UTILITY_SCOPE = 'page_utility_messaging'

export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | (string & {})

/** A template of the network's library, as `GET /message_template_library` answers it. */
export interface LibraryTemplate {
  id: string
  name: string
  language: string
  category: string
  topic?: string
  usecase?: string
  industry?: string[]
  body: string
  body_params?: string[]
  body_param_types?: string[]
}

/** A page's template, as `GET /{page-id}/message_templates` answers it. */
export interface PageTemplate {
  id: string
  name: string
  language: string
  status: TemplateStatus
  category: string
  rejected_reason?: string
  library_template_name?: string
  components: { type: string; text?: string; example?: { body_text?: string[][] } }[]
}

/** A page template's body text (its BODY component's). */
export function templateBody(t: Pick<PageTemplate, 'components'>): string {
  return t.components.find((c) => c.type.toUpperCase() === 'BODY')?.text ?? ''
}

export interface UtilityClient {
  library(token: string, q: { search?: string; language?: string }): Promise<LibraryTemplate[]>
  templates(pageId: string, pageToken: string): Promise<PageTemplate[]>
  /** Copies a library template into the page's library under `name`: approved at once. */
  clone(
    pageId: string,
    pageToken: string,
    t: { name: string; language: string; libraryName: string },
  ): Promise<{ id: string; status: TemplateStatus }>
  /** A template the page writes: reviewed, its outcome told by the status webhook. */
  create(
    pageId: string,
    pageToken: string,
    t: { name: string; language: string; body: string; examples: string[] },
  ): Promise<{ id: string; status: TemplateStatus }>
  edit(templateId: string, pageToken: string, t: { body: string; examples: string[] }): Promise<void>
  remove(pageId: string, pageToken: string, name: string): Promise<void>
}

function components(body: string, examples: string[]) {
  return [{ type: 'BODY', text: body, ...(examples.length ? { example: { body_text: [examples] } } : {}) }]
}

export function createUtilityClient(options: GraphClientOptions): UtilityClient {
  const { call, paged } = createGraphTransport(options)
  return {
    library: async (token, q) =>
      (
        await paged<LibraryTemplate>('message_template_library', token, {
          search: q.search,
          language: q.language,
        })
      ).data,
    templates: async (pageId, pageToken) =>
      (await paged<PageTemplate>(`${pageId}/message_templates`, pageToken, { limit: 100 })).data,
    clone: (pageId, pageToken, t) =>
      call(
        'POST',
        `${pageId}/message_templates`,
        { access_token: pageToken },
        {
          name: t.name,
          language: t.language,
          category: 'UTILITY',
          library_template_name: t.libraryName,
        },
      ),
    create: (pageId, pageToken, t) =>
      call(
        'POST',
        `${pageId}/message_templates`,
        { access_token: pageToken },
        {
          name: t.name,
          language: t.language,
          category: 'UTILITY',
          components: components(t.body, t.examples),
        },
      ),
    edit: async (templateId, pageToken, t) => {
      await call(
        'POST',
        templateId,
        { access_token: pageToken },
        { components: components(t.body, t.examples) },
      )
    },
    remove: async (pageId, pageToken, name) => {
      await call('DELETE', `${pageId}/message_templates`, { access_token: pageToken, name })
    },
  }
}
