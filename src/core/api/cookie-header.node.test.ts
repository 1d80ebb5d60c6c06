import { describe, expect, it } from 'vitest'
import { cookieValue } from './cookie-header.ts'

describe('cookieValue', () => {
  it('finds one cookie among several, decoded, and nothing for a missing one', () => {
    const header = 'theme=dark; pagecast_session=a%2Bb%3Dc; other=1'
    expect(cookieValue(header, 'pagecast_session')).toBe('a+b=c')
    expect(cookieValue(header, 'theme')).toBe('dark')
    expect(cookieValue(header, 'session')).toBeUndefined()
    expect(cookieValue(undefined, 'theme')).toBeUndefined()
  })

  it('keeps a value with "=" in it whole, and returns a malformed encoding as sent', () => {
    expect(cookieValue('t=abc==', 't')).toBe('abc==')
    expect(cookieValue('t=%E0%A4%A', 't')).toBe('%E0%A4%A')
  })
})
