/**
 * One cookie's value from a `Cookie` header (or `document.cookie`, which has the same shape). A value that is
 * not valid percent-encoding is returned as sent rather than failing the request that carries it.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key !== name) continue
    const value = rest.join('=')
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return undefined
}
