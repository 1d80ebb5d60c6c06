import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { loggingOptions } from './logging.ts'
import { logFormat, prettyLogStream } from './pretty-log.ts'

describe('the terminal log', () => {
  it('writes one readable line per request, with method, masked address, status and duration', async () => {
    const lines: string[] = []
    const stream = prettyLogStream({ write: (text) => lines.push(...text.split('\n').filter(Boolean)) })
    const app = Fastify(loggingOptions(loadConfig({ LOG_LEVEL: 'info' }), stream))
    app.get('/hello', async () => ({ ok: true }))
    app.get('/broken', async () => {
      throw new Error('it broke')
    })
    await app.inject({ url: '/hello?access_token=secret' })
    await app.inject({ url: '/missing' })
    await app.inject({ url: '/broken' })
    await app.close()
    const requests = lines.filter((l) => / (GET|POST) /.test(l))
    expect(requests).toHaveLength(3)
    expect(requests[0]).toMatch(/^\d\d:\d\d:\d\d GET \/hello\?access_token=\[redacted\] 200 \d+\.\d ms$/)
    expect(requests[1]).toMatch(/ GET \/missing 404 /)
    expect(requests[2]).toMatch(/ GET \/broken 500 /)
    expect(lines.join('\n')).not.toContain('secret')
    expect(lines.some((l) => l.startsWith('{'))).toBe(false)
  })

  it('is used in a terminal, and JSON is kept when piped or in production', () => {
    expect(logFormat({ NODE_ENV: 'development' }, true)).toBe('pretty')
    expect(logFormat({ NODE_ENV: 'development' }, false)).toBe('json')
    expect(logFormat({ NODE_ENV: 'development' }, undefined)).toBe('json')
    expect(logFormat({ NODE_ENV: 'production' }, true)).toBe('json')
  })

  it('passes lines that are not JSON through unchanged', () => {
    const out: string[] = []
    prettyLogStream({ write: (t) => out.push(t) }).write('plain text\n')
    expect(out).toEqual(['plain text\n'])
  })
})
