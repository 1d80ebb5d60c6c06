/** Small helpers for the sandbox's HTML pages: escaping and a strict CSP (no inline script or style). */
import type { FastifyReply } from 'fastify'

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'"

export function sendHtml(
  reply: FastifyReply,
  title: string,
  body: string,
  opts: { css: string; script?: string; status?: number },
): FastifyReply {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${opts.css}">
${opts.script ? `<script src="${opts.script}" defer></script>` : ''}
</head>
<body>
${body}
</body>
</html>`
  return reply
    .status(opts.status ?? 200)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .send(html)
}

export const SANDBOX_CSS = `
body{font-family:system-ui,sans-serif;background:#f0f2f5;margin:0;padding:24px;color:#1c1e21}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.15);padding:24px}
h1{font-size:20px;margin:0 0 8px}
p{margin:8px 0}
fieldset{border:1px solid #dddfe2;border-radius:6px;margin:12px 0;padding:8px 12px}
label{display:block;padding:4px 0}
.actions{display:flex;gap:8px;justify-content:flex-end;margin-top:16px}
button{font-size:15px;padding:8px 16px;border-radius:6px;border:1px solid #ccd0d5;background:#e4e6eb;cursor:pointer}
button.primary{background:#1877f2;border-color:#1877f2;color:#fff}
button:disabled{opacity:.6;cursor:default}
.amount{font-size:28px;font-weight:600}
.note{color:#65676b;font-size:13px}
`
