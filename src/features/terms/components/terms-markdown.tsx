/** The terms text as markdown; a chunk of its own, and raw HTML in the source is never rendered. */
import Markdown from 'react-markdown'

export default function TermsMarkdown({ content }: { content: string }) {
  return (
    <div className="terms-prose space-y-3 text-sm leading-relaxed text-slate-700">
      <Markdown skipHtml>{content}</Markdown>
    </div>
  )
}
