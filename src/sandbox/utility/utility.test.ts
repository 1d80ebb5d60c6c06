import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { GraphError } from '../../core/graph/errors.ts'
import { createUtilityClient, templateBody, type UtilityClient } from '../../core/graph/utility.ts'
import { webhookReceiver, type WebhookReceiver } from '../marketing/test-support.ts'
import { startSandbox, type TestSandbox, VERSION } from '../test-support.ts'

const DAY = 86_400_000
let sb: TestSandbox
let hooks: WebhookReceiver
let utility: UtilityClient
let token: string
let page: string
/** Webhook bodies received before the test began. */
let seen = 0
const statusValues = () =>
  hooks
    .events()
    .filter((e) => (e as { field?: string }).field === 'message_template_status_update')
    .map((e) => (e as { value: Record<string, unknown> }).value)
const waitStatus = async (n: number) => {
  const until = Date.now() + 3_000
  while (statusValues().length < seen + n && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
}

async function refusal(p: Promise<unknown>): Promise<GraphError> {
  try {
    await p
  } catch (err) {
    if (err instanceof GraphError) return err
    throw err
  }
  throw new Error('the call was not refused')
}

beforeAll(async () => {
  hooks = await webhookReceiver()
  sb = await startSandbox({ messengerWebhookUrl: hooks.url, utilityReviewMs: 200 })
  utility = createUtilityClient({ baseUrl: `${sb.url}/graph`, version: VERSION })
})
afterAll(async () => {
  await sb.app.close()
  await hooks.close()
})
beforeEach(async () => {
  await sb.post('/reset')
  page = sb.ids.small
  const user = await sb.userToken('demo', [...REQUIRED_PERMISSIONS, 'page_utility_messaging'])
  token = await sb.pageToken(page, user)
  seen = statusValues().length
})

/** A customer of the page who last wrote more than a day ago (outside the window). */
function oldCustomer() {
  const conv = sb.seeded(page).find((c) => !c.blocked && c.canReply && Date.now() - c.lastCustomerMs > DAY)
  if (!conv) throw new Error('no customer outside the window')
  return conv
}

describe('utility messages in the sandbox', () => {
  it("searches Meta's library by words and language", async () => {
    const found = await utility.library(token, { search: 'order', language: 'en_US' })
    expect(found.map((t) => t.name)).toContain('order_ready_1')
    expect(found.every((t) => t.language === 'en_US' && t.category === 'UTILITY')).toBe(true)
    const urdu = await utility.library(token, { search: 'event', language: 'ur' })
    expect(urdu[0]?.body).toContain('{{1}}')
    expect(await utility.library(token, { search: 'no such words' })).toEqual([])
  })

  it('clones a library template approved at once, and sends it outside the window with its placeholders filled', async () => {
    const cloned = await utility.clone(page, token, {
      name: 'order_ready',
      language: 'en_US',
      libraryName: 'order_ready_1',
    })
    expect(cloned.status).toBe('APPROVED')
    const customer = oldCustomer()
    const sent = await sb.client.send(page, token, {
      recipientId: customer.customer.id,
      messagingType: 'UTILITY',
      utility: { name: 'order_ready', language: 'en_US', params: ['Maya', '#1042'] },
    })
    expect(sent.message_id).toBeTruthy()
    const sends = (await (await fetch(`${sb.url}/utility/sends?page_id=${page}`)).json()) as {
      data: { text: string; parameters: string[]; template_name: string }[]
    }
    expect(sends.data).toEqual([
      expect.objectContaining({
        template_name: 'order_ready',
        parameters: ['Maya', '#1042'],
        text: 'Hi Maya, your order #1042 is ready for pickup.',
      }),
    ])
    await waitStatus(1)
    expect(statusValues().slice(seen)).toEqual([
      expect.objectContaining({ event: 'APPROVED', message_template_name: 'order_ready' }),
    ])
    expect(hooks.signedWith(sb.options.appSecret)).toBe(true)
  })

  it("approves a page's own template within seconds through the status webhook, and rejects a promotional one with the reason", async () => {
    const made = await utility.create(page, token, {
      name: 'class_reminder',
      language: 'en_US',
      body: 'Hi {{1}}, your class is on {{2}}.',
      examples: ['Maya', 'Saturday'],
    })
    expect(made.status).toBe('PENDING')
    const promo = await utility.create(page, token, {
      name: 'big_sale',
      language: 'en_US',
      body: 'Hi {{1}}, 20% off everything this weekend!',
      examples: ['Maya'],
    })
    await waitStatus(2)
    const events = statusValues().slice(seen)
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'APPROVED', message_template_name: 'class_reminder', reason: 'NONE' }),
    )
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'REJECTED',
        message_template_id: Number(promo.id),
        reason: 'INCORRECT_CATEGORY',
      }),
    )
    const list = await utility.templates(page, token)
    expect(list.find((t) => t.name === 'big_sale')).toMatchObject({
      status: 'REJECTED',
      rejected_reason: 'INCORRECT_CATEGORY',
    })
    // A rejected template cannot be sent.
    const refused = await refusal(
      sb.client.send(page, token, {
        recipientId: oldCustomer().customer.id,
        messagingType: 'UTILITY',
        utility: { name: 'big_sale', language: 'en_US', params: ['Maya'] },
      }),
    )
    expect(refused.code).toBe(132001)
  })

  it('edits a template (reviewed again) and deletes it', async () => {
    const made = await utility.create(page, token, {
      name: 'pickup',
      language: 'es_MX',
      body: 'Hola {{1}}, tu pedido está listo.',
      examples: ['Maya'],
    })
    await utility.edit(made.id, token, {
      body: 'Hola {{1}}, tu pedido {{2}} está listo.',
      examples: ['Maya', '#7'],
    })
    let [t] = await utility.templates(page, token)
    expect(t?.status).toBe('PENDING')
    // The first version's review may have ended (with its webhook) before the edit: the edit's own review is
    // the template turning approved again.
    await expect
      .poll(async () => (await utility.templates(page, token))[0]?.status, { timeout: 10_000, interval: 20 })
      .toBe('APPROVED')
    ;[t] = await utility.templates(page, token)
    expect(templateBody(t!)).toBe('Hola {{1}}, tu pedido {{2}} está listo.')
    await utility.remove(page, token, 'pickup')
    expect(await utility.templates(page, token)).toEqual([])
  })

  it('refuses without page_utility_messaging, wrong parameters, an unknown template and a duplicate', async () => {
    const plain = await sb.pageToken(page)
    expect((await refusal(utility.templates(page, plain))).code).toBe(200)
    await utility.clone(page, token, { name: 'order_ready', language: 'en_US', libraryName: 'order_ready_1' })
    const customer = oldCustomer().customer.id
    const noPermission = await refusal(
      sb.client.send(page, plain, {
        recipientId: customer,
        messagingType: 'UTILITY',
        utility: { name: 'order_ready', language: 'en_US', params: ['Maya', '#1'] },
      }),
    )
    expect(noPermission.code).toBe(200)
    const wrongCount = await refusal(
      sb.client.send(page, token, {
        recipientId: customer,
        messagingType: 'UTILITY',
        utility: { name: 'order_ready', language: 'en_US', params: ['Maya'] },
      }),
    )
    expect(wrongCount.code).toBe(132000)
    const unknown = await refusal(
      sb.client.send(page, token, {
        recipientId: customer,
        messagingType: 'UTILITY',
        utility: { name: 'order_ready', language: 'bn', params: ['Maya', '#1'] },
      }),
    )
    expect(unknown.code).toBe(132001)
    const dup = await refusal(
      utility.clone(page, token, { name: 'order_ready', language: 'en_US', libraryName: 'order_ready_1' }),
    )
    expect([dup.code, dup.subcode]).toEqual([100, 2388024])
    const gap = await refusal(
      utility.create(page, token, { name: 'gap', language: 'en_US', body: 'Hi {{2}}', examples: ['x', 'y'] }),
    )
    expect(gap.code).toBe(100)
    const sends = (await (await fetch(`${sb.url}/utility/sends`)).json()) as { data: unknown[] }
    expect(sends.data).toEqual([])
  })
})
