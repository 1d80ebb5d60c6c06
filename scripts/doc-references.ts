/**
 * Comments cite the project's own documents, never one outside the repository: a `docs/<file>.md#<heading>`
 * reference must name a file of `docs/` and one of its headings (anchored as GitHub anchors them), and the
 * citations of documents the repository does not hold (a bare `architecture.md` or `style.md`, a numbered spec
 * section, "the spec") are reported wherever they appear. The links between the documents and the README's
 * links into `docs/` are checked the same way. See docs/style.md#comments-cite-docs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** Where comments are read: every source, script and test file, the lint rules, and the README. */
const SOURCE_ROOTS = ['src', 'scripts', 'tests', 'eslint']
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|css|html)$/
/** This checker and its test spell the forbidden citations out. */
const SELF = new Set(['scripts/doc-references.ts', 'scripts/doc-references.test.ts'])

/** Citations of documents that are not in the repository, and why each is refused. */
const OUTSIDE: { pattern: RegExp; why: string }[] = [
  { pattern: /(?<![\w/.-])(architecture|style)\.md\b/g, why: 'cites $1.md outside docs/' },
  { pattern: /\b[Ss]pec(ification)?('s)? (sections?|§) ?\d*/g, why: 'cites a section of the spec' },
  { pattern: /§\s*\d/g, why: 'cites a numbered section' },
  { pattern: /\b[Ss]ections? \d/g, why: 'cites a numbered section' },
  {
    pattern: /\b[Tt]he spec\b(?! files?\b)|\b[Ss]pec's\b(?! files?\b)|\bas the spec\b/g,
    why: 'cites the spec',
  },
]

const DOC_REFERENCE = /\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g

export interface Problem {
  file: string
  line: number
  message: string
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every heading anchor of a markdown text (a repeated heading gets `-1`, `-2`, …), fenced code left out. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = slug(heading[1]!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

function sourceFiles(root: string, dir: string, out: string[]): string[] {
  for (const name of readdirSync(path.join(root, dir))) {
    if (name === 'node_modules' || name === 'artifacts' || name.startsWith('.')) continue
    const rel = path.posix.join(dir, name)
    if (statSync(path.join(root, rel)).isDirectory()) sourceFiles(root, rel, out)
    else if (SOURCE_FILE.test(name) && !SELF.has(rel)) out.push(rel)
  }
  return out
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/** The documents of `docs/` by file name, with their anchors. */
function readDocs(root: string): Map<string, { text: string; anchors: Set<string> }> {
  const docs = new Map<string, { text: string; anchors: Set<string> }>()
  let names: string[] = []
  try {
    names = readdirSync(path.join(root, 'docs')).filter((n) => n.endsWith('.md'))
  } catch {
    // No docs folder: every reference into it is broken.
  }
  for (const name of names) {
    const text = readFileSync(path.join(root, 'docs', name), 'utf8')
    docs.set(name, { text, anchors: anchorsOf(text) })
  }
  return docs
}

function checkTarget(
  docs: Map<string, { anchors: Set<string> }>,
  file: string,
  anchor: string | undefined,
): string | undefined {
  const doc = docs.get(file)
  if (!doc) return `docs/${file} does not exist`
  if (anchor && !doc.anchors.has(anchor)) return `docs/${file} has no heading #${anchor}`
  return undefined
}

/** Every broken or outside citation under `root`, in file order. */
export function docReferenceProblems(root: string): Problem[] {
  const docs = readDocs(root)
  const problems: Problem[] = []
  const files = SOURCE_ROOTS.flatMap((dir) => {
    try {
      return sourceFiles(root, dir, [])
    } catch {
      return []
    }
  }).sort()
  const topLevel = [
    'README.md',
    'eslint.config.js',
    'vite.config.ts',
    'vitest.config.ts',
    'playwright.config.ts',
  ]
  const extraFiles = topLevel.filter((file) => existsSync(path.join(root, file)))
  for (const file of [...files, ...extraFiles]) {
    const text = readFileSync(path.join(root, file), 'utf8')
    for (const m of text.matchAll(DOC_REFERENCE)) {
      const message = checkTarget(docs, m[1]!, m[2])
      if (message) problems.push({ file, line: lineOf(text, m.index), message })
    }
    // One report per citation: a later pattern matching inside an earlier one's match says nothing new.
    const reported: [number, number][] = []
    for (const { pattern, why } of OUTSIDE) {
      for (const m of text.matchAll(pattern)) {
        const end = m.index + m[0].length
        if (reported.some(([a, b]) => m.index < b && end > a)) continue
        reported.push([m.index, end])
        problems.push({
          file,
          line: lineOf(text, m.index),
          message: `${why.replace('$1', m[1] ?? '')}: "${m[0]}"`,
        })
      }
    }
  }
  // The documents' links to each other and to their own headings.
  for (const [name, doc] of docs) {
    for (const m of doc.text.matchAll(/\]\(([\w.-]*?\.md)?(?:#([\w-]+))?\)/g)) {
      if (!m[1] && !m[2]) continue
      const message = checkTarget(docs, m[1] ?? name, m[2])
      if (message) problems.push({ file: `docs/${name}`, line: lineOf(doc.text, m.index), message })
    }
  }
  return problems
}
