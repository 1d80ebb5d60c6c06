/**
 * The import graph of a folder's TypeScript modules, and its cycles: `scripts/import-direction.test.ts` fails
 * on any cycle among the modules of `src/`. An edge is a relative import, re-export or `import type`, an
 * `import()` of a string (or of a template without expressions) and a type's `import('…')`. Type-only edges
 * count: two modules that name each other's types cannot be read, moved or split one without the other.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** Module -> the modules it imports, as paths relative to the folder (with `/`). */
export type ImportGraph = Map<string, string[]>

function modules(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : modules(root, file)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : []
  })
}

/** TypeScript's own pre-processing scanner: every form above, without building a syntax tree. */
function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName)
}

export function importGraph(root: string): ImportGraph {
  const files = modules(root)
  const key = (file: string) => path.relative(root, file).split(path.sep).join('/')
  const known = new Set(files.map(key))
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const targets = specifiers(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => key(path.resolve(path.dirname(file), spec)))
      .filter((target) => known.has(target))
    graph.set(key(file), [...new Set(targets)])
  }
  return graph
}

/** Every set of modules that import one another in a ring (Tarjan's strongly connected components), sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const connect = (module: string) => {
    index.set(module, next)
    low.set(module, next)
    next++
    stack.push(module)
    onStack.add(module)
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        connect(target)
        low.set(module, Math.min(low.get(module)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!))
    }
    if (low.get(module) !== index.get(module)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== module)
    if (component.length > 1 || graph.get(module)?.includes(module)) cycles.push(component.sort())
  }
  for (const module of graph.keys()) if (!index.has(module)) connect(module)
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}
