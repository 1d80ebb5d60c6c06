/** One JSON call to a bench's server: the body sent as JSON, the bearer token when given, a refusal thrown with its answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonAnswer = Record<string, any>

export async function callJson(
  origin: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<JsonAnswer> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as JsonAnswer
}
