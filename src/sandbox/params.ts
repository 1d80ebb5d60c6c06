import type { FastifyRequest } from 'fastify'

/**
 * A Graph call's parameters: its query and its body together, as the Graph API reads them from either (a body
 * that is not an object, a form or JSON, adds none).
 */
export function graphParams(request: FastifyRequest): Record<string, unknown> {
  const body =
    request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {}
  return { ...((request.query ?? {}) as Record<string, unknown>), ...body }
}
