/**
 * The start catalog (lingui.config.ts) holds the words of every module a signed-out visitor's first screen
 * loads, and no other: a word left in a later catalog would show as its id on the login screen, a module
 * listed but not loaded at start would make every visitor download its words.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { START_FILES } from '../lingui.config.ts'

/** Relative modules a file imports for their values (not `import type`, not `import()`). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const specs = [
    ...source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?'(\.[^']+)'/gm),
  ].map((m) => m[1]!)
  return specs
    .map((spec) => path.posix.join(path.posix.dirname(file), spec))
    .filter((target) => /\.tsx?$/.test(target) && existsSync(target))
}

/** The entry's modules loaded before any dynamic import. */
function startClosure(entry: string): Set<string> {
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    queue.push(...staticImports(file))
  }
  return seen
}

const hasWords = (file: string) => /from '@lingui\/(core|react)\/macro'/.test(readFileSync(file, 'utf8'))

describe('the start catalog', () => {
  const start = startClosure('src/main.tsx')

  it('follows the entry through its static imports', () => {
    expect(start.has('src/features/auth/components/login-screen.tsx')).toBe(true)
    // The signed-in app is a dynamic import: it is not part of the start.
    expect(start.has('src/app/app.tsx')).toBe(false)
  })

  it('lists every module of the start that has words, and only those', () => {
    expect([...start].filter(hasWords).sort()).toEqual([...START_FILES].sort())
  })
})
