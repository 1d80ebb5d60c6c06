import { describe, expect, it } from 'vitest'
import { JOB_TEXTS, jobNoticePayload } from './job-notices.ts'

describe('the notices of a job the server sent', () => {
  it('say a finished job and its count in the device language, one notification per job', () => {
    const en = jobNoticePayload({ kind: 'finished', messageId: 'm1', sent: 1280 }, 'en')
    expect(en).toMatchObject({ type: 'notice', title: 'Bulk message sent', body: 'Sent to 1,280 customers.' })
    expect(en).toMatchObject({ url: '/', tag: 'job:m1', lang: 'en', dir: 'ltr' })
    expect(jobNoticePayload({ kind: 'finished', messageId: 'm1', sent: 1280 }, 'bn').body).toContain('১,২৮০')
    expect(jobNoticePayload({ kind: 'finished', messageId: 'm1', sent: 3 }, 'ur')).toMatchObject({
      dir: 'rtl',
    })
  })

  it("word a finished job's count by the language's plural rules", () => {
    const body = (sent: number, lang: string) =>
      jobNoticePayload({ kind: 'finished', messageId: 'm1', sent }, lang).body
    expect(body(1, 'en')).toBe('Sent to 1 customer.')
    expect(body(1, 'es')).toBe('Enviado a 1 cliente.')
    expect(body(1_000_000, 'es')).toBe('Enviado a 1,000,000 de clientes.')
    expect(body(1, 'ur')).toBe('1 صارف کو بھیجا گیا۔')
  })

  it('send the owner to the page to reconnect when its token ran out', () => {
    const notice = jobNoticePayload({ kind: 'needs_token', messageId: 'm2', pageId: '1001' }, 'es')
    expect(notice).toMatchObject({ title: 'Mensaje masivo en pausa', url: '/1001' })
  })

  it('fall back to English for a language the app does not have', () => {
    expect(jobNoticePayload({ kind: 'stopped', messageId: 'm3', reason: 'page_blocked' }, 'de').title).toBe(
      'Bulk message stopped',
    )
  })

  it('exist in every app language, each different from English', () => {
    for (const code of ['en', 'es', 'km', 'id', 'fil', 'ur', 'bn']) {
      expect(JOB_TEXTS[code as keyof typeof JOB_TEXTS]).toBeDefined()
      if (code !== 'en')
        expect(JOB_TEXTS[code as keyof typeof JOB_TEXTS].stoppedTitle).not.toBe(JOB_TEXTS.en.stoppedTitle)
    }
  })
})
