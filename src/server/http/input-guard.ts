/**
 * What no field of any request may hold (checked once for every body, query string and path parameters by
 * `installInputGuard` in errors.ts, before any route sees them): values nested deeper than MAX_DEPTH, and
 * strings (values or keys) holding U+0000 or an unpaired surrogate. PostgreSQL refuses NUL in text
 * and an unpaired surrogate in JSON; a lone surrogate cannot be sent to the network either; deep nesting would
 * exhaust the stack of whatever walks it. The walk itself is iterative, so no depth can overflow it.
 */
/** How many levels below the body (or query, or parameters) a value may sit. */
export const MAX_DEPTH = 32
/** A body with problems everywhere is answered with this many fields named, not all of them. */
const MAX_FIELDS_NAMED = 20

export const NUL_MESSAGE = 'The text must not contain the NUL character (U+0000).'
export const SURROGATE_MESSAGE = 'The text must be valid Unicode: it holds an unpaired surrogate.'
export const DEPTH_MESSAGE = `The data is nested too deeply (at most ${MAX_DEPTH} levels).`

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE
  if (!text.isWellFormed()) return SURROGATE_MESSAGE
  return undefined
}

const isPlain = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && !ArrayBuffer.isView(value)

/**
 * The fields of `value` that cannot be stored or sent, by dotted path (`body` for the value itself): NUL,
 * unpaired surrogates (in values and in keys) and nesting past MAX_DEPTH. Buffers (raw bodies) are left to
 * their routes.
 */
export function inputErrors(value: unknown, root = 'body'): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  let named = 0
  const add = (path: readonly string[], message: string): boolean => {
    const field = path.length ? path.join('.') : root
    if (!errors[field]) {
      if (named >= MAX_FIELDS_NAMED) return false
      named++
    }
    const messages = (errors[field] ??= [])
    if (!messages.includes(message)) messages.push(message)
    return true
  }
  const stack: { value: unknown; path: readonly string[] }[] = [{ value, path: [] }]
  while (stack.length > 0) {
    const { value: item, path } = stack.pop()!
    if (typeof item === 'string') {
      const problem = textProblem(item)
      if (problem && !add(path, problem)) break
      continue
    }
    if (!isPlain(item)) continue
    if (path.length >= MAX_DEPTH) {
      if (!add(path, DEPTH_MESSAGE)) break
      continue
    }
    const entries = Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : Object.entries(item)
    // Pushed in reverse, so fields are named in the order they were sent.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!
      const keyProblem = textProblem(key)
      if (keyProblem) {
        if (!add(path, keyProblem)) break
        continue
      }
      stack.push({ value: child, path: [...path, key] })
    }
  }
  return errors
}
