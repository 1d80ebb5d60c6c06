/**
 * Graph field selection: `id,name,accounts.limit(5){id,name,picture{url}}` or `accounts{id}.limit(5)`.
 * Nodes are plain records whose edges may be functions resolved with the requested sub-selection.
 */
export interface FieldSpec {
  name: string
  modifiers: Record<string, string>
  children?: FieldSpec[]
}

export function parseFields(input: string | undefined): FieldSpec[] | undefined {
  if (!input || !input.trim()) return undefined
  let i = 0
  const s = input.replace(/\s+/g, '')

  function list(): FieldSpec[] {
    const out: FieldSpec[] = []
    while (i < s.length && s[i] !== '}') {
      out.push(field())
      if (s[i] === ',') i++
    }
    return out
  }

  function field(): FieldSpec {
    let name = ''
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i]!)) name += s[i++]
    const spec: FieldSpec = { name, modifiers: {} }
    for (;;) {
      if (s[i] === '{') {
        i++
        spec.children = list()
        i++ // '}'
      } else if (s[i] === '.') {
        i++
        let mod = ''
        while (i < s.length && /[A-Za-z0-9_]/.test(s[i]!)) mod += s[i++]
        let value = ''
        if (s[i] === '(') {
          i++
          while (i < s.length && s[i] !== ')') value += s[i++]
          i++
        }
        spec.modifiers[mod] = value
      } else {
        return spec
      }
    }
  }

  return list().filter((f) => f.name)
}

/** A field resolver receives the requested sub-selection (children and modifiers such as limit). */
export type Resolver = (spec: FieldSpec) => unknown
export type GraphNode = Record<string, unknown>

export function project(node: GraphNode, specs: FieldSpec[]): GraphNode {
  const out: GraphNode = {}
  for (const spec of specs) {
    const raw = node[spec.name]
    if (raw === undefined) continue
    const value = typeof raw === 'function' ? (raw as Resolver)(spec) : raw
    if (value === undefined) continue
    out[spec.name] = spec.children && typeof raw !== 'function' ? projectValue(value, spec.children) : value
  }
  return out
}

function projectValue(value: unknown, children: FieldSpec[]): unknown {
  if (Array.isArray(value)) return value.map((v) => projectValue(v, children))
  if (value && typeof value === 'object') {
    const obj = value as GraphNode
    if (Array.isArray(obj.data)) return { ...obj, data: obj.data.map((v) => projectValue(v, children)) }
    if (obj.data && typeof obj.data === 'object')
      return { ...obj, data: project(obj.data as GraphNode, children) }
    return project(obj, children)
  }
  return value
}

export function fieldsOrDefault(input: string | undefined, defaults: string): FieldSpec[] {
  return parseFields(input) ?? parseFields(defaults)!
}

/** Back to the `fields` syntax, for the next/previous links of an edge read through a nested selection. */
export function formatFields(specs: FieldSpec[]): string {
  return specs
    .map((f) => {
      const mods = Object.entries(f.modifiers)
        .map(([k, v]) => `.${k}(${v})`)
        .join('')
      return `${f.name}${mods}${f.children ? `{${formatFields(f.children)}}` : ''}`
    })
    .join(',')
}

/** Form posts carry `recipient` and `message` as JSON strings, like the network accepts them. */
export function jsonField(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value)
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined
    } catch {
      return undefined
    }
  }
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
}
