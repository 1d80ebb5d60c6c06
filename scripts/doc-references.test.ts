import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { anchorsOf, docReferenceProblems, slug } from './doc-references.ts'

const folders: string[] = []

function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'doc-references-'))
  folders.push(root)
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

afterEach(() => {
  for (const root of folders.splice(0)) rmSync(root, { recursive: true, force: true })
})

const RULES = '# Rules\n\n## Bulk wizard\n\n### The 24-hour window\n\n```\n## not a heading\n```\n'

describe('doc references', () => {
  it('anchors headings as GitHub does: lower case, punctuation dropped, repeats numbered', () => {
    expect(slug('Graph error classes')).toBe('graph-error-classes')
    expect(slug('The 24-hour window (current policy)')).toBe('the-24-hour-window-current-policy')
    expect(slug('`HUMAN_AGENT`: seven days')).toBe('human_agent-seven-days')
    expect([...anchorsOf('## A\n## A\n### B.\n')]).toEqual(['a', 'a-1', 'b'])
    expect(anchorsOf(RULES).has('not-a-heading')).toBe(false)
  })

  it('reports a missing docs file or heading, and citations of documents outside the repository', () => {
    const root = project({
      'docs/product-rules.md':
        RULES + '\nSee [the wizard](#bulk-wizard) and [gone](architecture.md#nowhere).\n',
      'src/a.ts': [
        '// The wizard (docs/product-rules.md#bulk-wizard) and the window (docs/product-rules.md#the-24-hour-window).',
        '// Broken: docs/product-rules.md#bulk-wizzard and docs/decisions.md.',
        '/** As architecture.md says, and style.md. */',
        '// Spec section 4, spec §5, the spec says so; see section 9.',
        "const file = 'tests/e2e/x.spec.ts' // each spec file's time",
      ].join('\n'),
      'tests/b.ts': '// docs/architecture.md#live-updates\n',
      'README.md': 'The [rules](docs/product-rules.md#bulk-wizard), the [decisions](docs/decisions.md).\n',
    })
    const found = docReferenceProblems(root).map((p) => `${p.file}:${p.line}: ${p.message}`)
    expect(found).toEqual([
      'src/a.ts:2: docs/product-rules.md has no heading #bulk-wizzard',
      'src/a.ts:2: docs/decisions.md does not exist',
      'src/a.ts:3: cites architecture.md outside docs/: "architecture.md"',
      'src/a.ts:3: cites style.md outside docs/: "style.md"',
      'src/a.ts:4: cites a section of the spec: "Spec section 4"',
      'src/a.ts:4: cites a section of the spec: "spec §5"',
      'src/a.ts:4: cites a numbered section: "section 9"',
      'src/a.ts:4: cites the spec: "the spec"',
      'tests/b.ts:1: docs/architecture.md does not exist',
      'README.md:1: docs/decisions.md does not exist',
      'docs/product-rules.md:11: docs/architecture.md does not exist',
    ])
  })

  it('finds every comment of the repository pointing at a document and heading it holds', () => {
    const problems = docReferenceProblems(path.resolve(import.meta.dirname, '..'))
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([])
  })
})
