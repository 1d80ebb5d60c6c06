/**
 * The Graph API subset under `/graph/:version/…`: its own error handler (every failure is a Graph error
 * object), the fault hook, and form-encoded bodies as the network accepts them.
 */
import type { FastifyInstance } from 'fastify'
import type { SandboxContext } from '../context.ts'
import { faultHook } from '../faults.ts'
import { errors, SandboxGraphError } from '../graph-error.ts'
import { registerMarketingGraph } from '../marketing/graph.ts'
import { registerUtilityGraph } from '../utility/graph.ts'
import { registerGraphBatch } from './graph-batch.ts'
import { registerGraphLabels } from './graph-labels.ts'
import { registerGraphMisc } from './graph-misc.ts'
import { registerGraphRead } from './graph-read.ts'
import { registerGraphSend } from './graph-send.ts'

const VERSION = /^v\d+\.\d+$/

export async function graphRoutes(app: FastifyInstance, ctx: SandboxContext, prefix: string): Promise<void> {
  await app.register(async (graph) => {
    graph.addHook(
      'onRequest',
      faultHook(() => ctx.faults),
    )
    // Like the network, the Graph API answers any origin (the app calls it from the browser with page tokens).
    graph.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*')
    })
    graph.options('/graph/*', async (_request, reply) =>
      reply
        .status(204)
        .header('access-control-allow-methods', 'GET, POST, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', '86400')
        .send(),
    )
    graph.addHook('preHandler', async (request) => {
      const { version } = (request.params ?? {}) as { version?: string }
      if (version && !VERSION.test(version)) throw errors.badVersion(version)
    })
    graph.setErrorHandler((err, _request, reply) => {
      if (err instanceof SandboxGraphError) return reply.status(err.httpStatus).send(err.body())
      const status = (err as { statusCode?: number }).statusCode ?? 500
      if (status < 500)
        return reply
          .status(400)
          .send(errors.invalidParam(err instanceof Error ? err.message : undefined).body())
      return reply.status(500).send(errors.transient(true).body())
    })
    graph.setNotFoundHandler((request, reply) =>
      reply
        .status(400)
        .send(new SandboxGraphError(`Unknown path components: ${request.url.split('?')[0]}`, 2500).body()),
    )
    registerGraphRead(graph, ctx, prefix)
    registerGraphSend(graph, ctx)
    registerGraphMisc(graph, ctx, prefix)
    registerGraphLabels(graph, ctx)
    registerMarketingGraph(graph, ctx)
    registerUtilityGraph(graph, ctx)
    registerGraphBatch(graph, prefix)
  })
}
