/** The terms text as markdown; a chunk of its own, and raw HTML in the source is never rendered. */
import Markdown, { type Components } from 'react-markdown'

/** The gate's own title is the page's h1, so the document's headings move one level down. */
const headingsBelowTitle: Components = { h1: 'h2', h2: 'h3', h3: 'h4', h4: 'h5' }

/**
 * The text keeps its own direction (`dir="auto"`): terms written in English read left to right in an Urdu
 * interface, their full stops and numbered headings where they belong.
 */
export default function TermsMarkdown({ content }: { content: string }) {
  return (
    <div dir="auto" className="terms-prose space-y-3 text-sm leading-relaxed text-slate-700">
      <Markdown skipHtml components={headingsBelowTitle}>
        {content}
      </Markdown>
    </div>
  )
}
