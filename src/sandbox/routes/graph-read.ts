/** Read side of the Graph subset: /me (with field selection), permissions, accounts, conversations, messages. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { absoluteBase, authenticate, authenticatePage, type SandboxContext } from '../context.ts'
import { fieldsOrDefault, formatFields, project, type FieldSpec, type GraphNode } from '../fields.ts'
import { errors } from '../graph-error.ts'
import { limitOf, paginate, timeKey } from '../paging.ts'
import type { DemoConversation } from '../state/demo.ts'
import type { TokenInfo } from '../state/tokens.ts'
import { conversationNode, messageNode, pictureNode } from './nodes.ts'

type Q = Record<string, string | undefined>

export function registerGraphRead(app: FastifyInstance, ctx: SandboxContext, prefix: string): void {
  const { store, tokens } = ctx

  function permissions(info: TokenInfo): { data: { permission: string; status: string }[] } {
    return {
      data: [
        ...info.granted.map((permission) => ({ permission, status: 'granted' })),
        ...info.declined.map((permission) => ({ permission, status: 'declined' })),
      ],
    }
  }

  function accounts(
    request: FastifyRequest,
    token: string,
    info: TokenInfo,
    spec: FieldSpec,
    q: Q,
    nested = false,
  ) {
    const base = absoluteBase(request) + prefix
    const pages = info.granted.includes('pages_show_list') ? store.pagesOf(info.user) : []
    const children = spec.children ?? fieldsOrDefault(undefined, 'access_token,category,name,id,tasks')
    const nodes = pages.map((p, index) => {
      const node: GraphNode = {
        id: p.id,
        name: p.name,
        category: p.category,
        category_list: [{ id: '2200', name: p.category }],
        fan_count: p.fanCount,
        unread_message_count: store.unreadOf(p.id),
        tasks: p.hasToken
          ? ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE']
          : ['ANALYZE'],
        picture: (s: FieldSpec) => pictureNode(base, p.id, s),
      }
      if (p.hasToken) node.access_token = tokens.pageToken(token, p.id)
      return { key: String(999 - index).padStart(3, '0'), node: project(node, children) }
    })
    const limit = limitOf(spec.modifiers.limit ?? q.limit, 25, 100)
    const page = paginate(request, nodes, (n) => n.key, {
      limit,
      after: spec.modifiers.after ?? q.after,
      before: spec.modifiers.before ?? q.before,
      // Read through /me?fields=accounts…: the links point at the edge itself, as the network's do.
      linkBase: nested
        ? `${request.url.split('/me')[0]}/me/accounts?${new URLSearchParams({ access_token: token, fields: formatFields(children) })}`
        : undefined,
    })
    return { ...page, data: page.data.map((n) => n.node) }
  }

  app.get('/graph/:version/me', async (request) => {
    const q = request.query as Q
    const { token, info } = authenticate(ctx, request)
    const base = absoluteBase(request) + prefix
    if (info.kind === 'page') {
      const page = store.pages.get(info.pageId!)!
      return project(
        { id: page.id, name: page.name, picture: (s: FieldSpec) => pictureNode(base, page.id, s) },
        fieldsOrDefault(q.fields, 'name,id'),
      )
    }
    const user = store.users[info.user]
    const node: GraphNode = {
      id: user.id,
      name: user.name,
      ...(info.granted.includes('email') ? { email: user.email } : {}),
      picture: (s: FieldSpec) => pictureNode(base, user.id, s),
      permissions: () => permissions(info),
      accounts: (s: FieldSpec) => accounts(request, token, info, s, { limit: q.limit }, true),
    }
    return project(node, fieldsOrDefault(q.fields, 'name,id'))
  })

  app.get('/graph/:version/me/permissions', async (request) => {
    const { info } = authenticate(ctx, request)
    return permissions(info)
  })

  app.get('/graph/:version/me/accounts', async (request) => {
    const q = request.query as Q
    const { token, info } = authenticate(ctx, request)
    if (info.kind !== 'user')
      throw errors.invalidParam('Tried accessing nonexisting field (accounts) on node type (Page)')
    const spec = {
      name: 'accounts',
      modifiers: {},
      children: q.fields ? fieldsOrDefault(q.fields, '') : undefined,
    }
    return accounts(request, token, info, spec, q)
  })

  app.get('/graph/:version/:id/conversations', async (request) => {
    const q = request.query as Q
    const { id } = request.params as { id: string }
    const { info, pageId } = authenticatePage(ctx, request, id)
    if (!info.granted.includes('pages_read_engagement') || !info.granted.includes('pages_manage_metadata')) {
      throw errors.needsReadPermissions()
    }
    if (q.platform && q.platform !== 'messenger' && q.platform !== 'MESSENGER') return { data: [] }
    const page = store.pages.get(pageId)!
    let convs = store.conversationsOf(pageId)
    if (q.user_id) convs = convs.filter((c) => c.customer.id === q.user_id)
    const specs = fieldsOrDefault(q.fields, 'id,link,updated_time')
    // Newest first by updated time then id (conversationsOf), the keys' order: cursors are found by halving.
    const result = paginate(request, convs, (c) => timeKey(c.updatedMs, c.id), {
      limit: limitOf(q.limit, 25),
      after: q.after,
      before: q.before,
      sorted: true,
    })
    // The conversation's messages edge, read nested (`messages.limit(10){from,created_time}`), newest first.
    const messagesEdge = (conv: DemoConversation) => (spec: FieldSpec) => {
      const newest = store.newestMessagesOf(conv, limitOf(spec.modifiers.limit, 25)).reverse()
      const children = spec.children ?? fieldsOrDefault(undefined, 'id,created_time')
      return { data: newest.map((m) => project(messageNode(ctx, page, conv, m), children)) }
    }
    return {
      ...result,
      data: result.data.map((c) =>
        project({ ...conversationNode(page, c), messages: messagesEdge(c) }, specs),
      ),
    }
  })

  app.get('/graph/:version/:id/messages', async (request) => {
    const q = request.query as Q
    const { id } = request.params as { id: string }
    const conv = store.conversation(id)
    const auth = authenticate(ctx, request)
    if (!conv) throw errors.unknownObject(id)
    if (auth.info.kind !== 'page') throw errors.needsPageToken()
    if (auth.info.pageId !== conv.pageId) throw errors.unknownObject(id)
    const page = store.pages.get(conv.pageId)!
    const newestFirst = [...store.messagesOf(conv)].reverse()
    const specs = fieldsOrDefault(q.fields, 'id,created_time')
    const result = paginate(request, newestFirst, (m) => timeKey(m.createdMs, m.id), {
      limit: limitOf(q.limit, 25),
      after: q.after,
      before: q.before,
    })
    return { ...result, data: result.data.map((m) => project(messageNode(ctx, page, conv, m), specs)) }
  })
}
