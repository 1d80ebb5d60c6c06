/**
 * One opt-in request ("Ask to subscribe") through the Send API: `POST /me/messages` with the page token and
 * the `notification_messages` template, as a RESPONSE inside the 24-hour window. The network allows one request
 * with the same title per person per week; a refusal rejects with the classified GraphError.
 */
import { classifyGraphError, networkError } from '../../../shared/graph/errors.ts'
import type { SendResult } from '../../../shared/graph/types.ts'

export interface OptInRequestInput {
  title: string
  /** What the network gives back in the `messaging_optins` webhook when the customer subscribes. */
  payload: string
}

/** The Send API body of an opt-in request. */
export function optInRequestBody(psid: string, input: OptInRequestInput) {
  return {
    recipient: { id: psid },
    messaging_type: 'RESPONSE',
    message: {
      attachment: {
        type: 'template',
        payload: { template_type: 'notification_messages', title: input.title, payload: input.payload },
      },
    },
  }
}

/** `graphRoot`: the Graph address with its version, e.g. https://graph.facebook.com/v25.0. */
export async function sendOptInRequest(
  graphRoot: string,
  pageToken: string,
  psid: string,
  input: OptInRequestInput,
): Promise<SendResult> {
  const url = new URL(`${graphRoot.replace(/\/$/, '')}/me/messages`, location.origin)
  url.searchParams.set('access_token', pageToken)
  let res: Response
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(optInRequestBody(psid, input)),
    })
  } catch (err) {
    throw networkError(err)
  }
  const data: unknown = await res.json().catch(() => undefined)
  if (!res.ok || !data || typeof data !== 'object' || 'error' in data)
    throw classifyGraphError(data, res.status, res.headers)
  return data as SendResult
}
