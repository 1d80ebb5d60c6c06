import { describe, expect, it } from 'vitest'
import {
  ARRIVAL_CLOCK_TOLERANCE_MS,
  arrival,
  arrivalText,
  failureKind,
  firstName,
  jobContent,
  personalText,
  recipientContent,
  sendContent,
  sendParts,
  utilityTemplate,
} from './delivery.ts'
import { classifyGraphError, GraphError } from './errors.ts'

describe('the delivery rules of both senders', () => {
  it('classifies a failure by the kind its code and subcode gave it, a fetch without answer as network, else transient', () => {
    expect(
      failureKind(classifyGraphError({ error: { code: 10, error_subcode: 2018278, message: 'x' } }, 400)),
    ).toBe('outside_window')
    expect(failureKind(new GraphError({ kind: 'auth', message: 'expired' }))).toBe('auth')
    expect(failureKind(new TypeError('Failed to fetch'))).toBe('network')
    expect(failureKind(new Error('something else'))).toBe('transient')
    expect(failureKind(Object.assign(new Error('x'), { kind: 'not-a-kind' }))).toBe('transient')
  })

  it('counts a page message with the same text within the clock tolerance before the attempt as arrived', () => {
    const at = 1_000_000_000
    const seen = (createdAt: number, text: string, fromId = 'page', hasImage = false) => ({
      fromId,
      createdAt,
      text,
      hasImage,
    })
    expect(arrival([seen(at - ARRIVAL_CLOCK_TOLERANCE_MS, 'hi')], 'page', 'hi', at).textSent).toBe(true)
    expect(arrival([seen(at - ARRIVAL_CLOCK_TOLERANCE_MS - 1, 'hi')], 'page', 'hi', at).textSent).toBe(false)
    expect(arrival([seen(at, 'hi', 'customer')], 'page', 'hi', at).textSent).toBe(false)
    expect(arrival([seen(at, '', 'page', true)], 'page', '', at)).toEqual({ textSent: true, imageSent: true })
  })

  it('names the message found carrying the text when the messages read have ids', () => {
    const at = 1_000_000_000
    const latest = [
      { id: 'm_2', fromId: 'page', createdAt: at + 2, text: 'other', hasImage: false },
      { id: 'm_1', fromId: 'page', createdAt: at + 1, text: 'Offers', hasImage: false },
    ]
    expect(arrival(latest, 'page', 'Offers', at)).toEqual({
      textSent: true,
      imageSent: false,
      textMessageId: 'm_1',
    })
    expect(arrival(latest, 'page', 'Missing', at)).toEqual({ textSent: false, imageSent: false })
  })

  it('sends the image first, records it, then the text; an image that went is not sent again', async () => {
    const log: string[] = []
    const steps = {
      image: async () => void log.push('image'),
      imageWent: async () => void log.push('recorded'),
      text: async () => void log.push('text'),
    }
    await sendParts({ image: true, imageSent: false, text: true }, steps)
    await sendParts({ image: true, imageSent: true, text: true }, steps)
    expect(log).toEqual(['image', 'recorded', 'text', 'text'])
  })
})

describe('a utility job', () => {
  const utility = {
    name: 'event_reminder',
    language: 'en_US',
    body: 'Hi {{1}}, {{2}} is on {{3}}.',
    params: ['{first name}', 'the cake class', 'Saturday'],
  }

  it("sends the template alone with the recipient's first name, and its filled body is what arrives", async () => {
    const content = recipientContent(jobContent('utility', null, utility), 'Maya Santos', 'friend')
    const calls: unknown[] = []
    const id = await sendContent(
      content,
      { image: false, imageSent: false },
      {
        optInRequest: () => Promise.reject(new Error('not an opt-in')),
        image: () => Promise.reject(new Error('no image')),
        imageWent: () => Promise.resolve(),
        text: () => Promise.reject(new Error('no text')),
        utility: (t) => {
          calls.push(t)
          return Promise.resolve('m_1')
        },
      },
    )
    expect(id).toBe('m_1')
    expect(calls).toEqual([
      { name: 'event_reminder', language: 'en_US', params: ['Maya', 'the cake class', 'Saturday'] },
    ])
    expect(arrivalText(content, 'ignored')).toBe('Hi Maya, the cake class is on Saturday.')
    expect(utilityTemplate({ name: 'x', language: 'bn', params: ['a'] })).toEqual({
      name: 'x',
      language: { code: 'bn' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }],
    })
  })

  it('fills a parameter with the fallback word where the network has no name, as a text is filled', () => {
    const content = recipientContent(jobContent('utility', null, utility), '', 'amigo')
    expect(content).toMatchObject({ utility: { params: ['amigo', 'the cake class', 'Saturday'] } })
    expect(arrivalText(content, 'ignored')).toBe('Hi amigo, the cake class is on Saturday.')
    expect(recipientContent(jobContent('text', null), 'Maya Santos', 'amigo')).toEqual({ kind: 'text' })
  })

  it('is plain text without its template', () => {
    expect(jobContent('utility', null, null)).toEqual({ kind: 'text' })
  })
})

describe('a message written to a person', () => {
  it('puts each recipient’s first name where the owner inserted it', () => {
    expect(personalText('Hola {first name}, ¡llegó tu talla!', 'Paolo Reyes', 'amigo')).toBe(
      'Hola Paolo, ¡llegó tu talla!',
    )
    expect(personalText('{first name}! {first name}?', '  María   José ', 'amigo')).toBe('María! María?')
  })

  it('writes the fallback word when the network gives no name', () => {
    expect(personalText('Hola {first name}', '', 'amigo')).toBe('Hola amigo')
    expect(personalText('Hola {first name}', undefined, 'amigo')).toBe('Hola amigo')
  })

  it('leaves a text without the placeholder as it is', () => {
    expect(personalText('Sale today {first}', 'Paolo Reyes', 'amigo')).toBe('Sale today {first}')
  })

  it('takes a name in any script whole up to its first space', () => {
    expect(firstName('សុខ ដារ៉ា')).toBe('សុខ')
    expect(firstName('আরিফ হোসেন')).toBe('আরিফ')
  })
})
