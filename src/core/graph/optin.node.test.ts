import { describe, expect, it } from 'vitest'
import { sendBody } from './client.ts'
import { arrivalText, jobContent, optInPayload, sendContent } from './delivery.ts'

describe('opt-in requests as a bulk job’s content', () => {
  it('are sent as the notification_messages template with the title and the job’s payload', () => {
    expect(
      sendBody({
        recipientId: '42',
        messagingType: 'RESPONSE',
        optIn: { title: 'Weekly offers', payload: optInPayload('7') },
      }),
    ).toEqual({
      recipient: { id: '42' },
      messaging_type: 'RESPONSE',
      message: {
        attachment: {
          type: 'template',
          payload: {
            template_type: 'notification_messages',
            title: 'Weekly offers',
            payload: 'pagecast_optin:7',
          },
        },
      },
    })
  })

  it('carry the metadata the network echoes, so the echo of a broadcast is told from an answer', () => {
    const body = sendBody({
      recipientId: '42',
      messagingType: 'RESPONSE',
      text: 'Sunday promotion',
      metadata: 'pagecast:broadcast',
    })
    expect(body.message).toEqual({ text: 'Sunday promotion', metadata: 'pagecast:broadcast' })
    expect(sendBody({ recipientId: '42', messagingType: 'RESPONSE', text: 'Hi' }).message).toEqual({
      text: 'Hi',
    })
  })

  it('replace the text and image of the message, and are found in the conversation by their title', async () => {
    const steps: string[] = []
    const record = {
      image: async () => void steps.push('image'),
      imageWent: async () => void steps.push('imageWent'),
      text: async () => void steps.push('text'),
      optInRequest: async (title: string) => {
        steps.push(`optin:${title}`)
        return 'm_1'
      },
    }
    expect(
      await sendContent(jobContent('optin_request', 'News'), { image: true, imageSent: false }, record),
    ).toBe('m_1')
    expect(steps).toEqual(['optin:News'])
    steps.length = 0
    expect(
      await sendContent(jobContent('text', null), { image: true, imageSent: false }, record),
    ).toBeUndefined()
    expect(steps).toEqual(['image', 'imageWent', 'text'])
    expect(arrivalText(jobContent('optin_request', 'News'), 'Hello')).toBe('News')
    expect(arrivalText(jobContent(undefined, undefined), 'Hello')).toBe('Hello')
  })
})
