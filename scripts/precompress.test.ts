import { describe, expect, it } from 'vitest'
import { shouldPrecompress } from './precompress.ts'

describe('precompressing build output', () => {
  it('compresses text assets worth compressing', () => {
    expect(shouldPrecompress('assets/index-abc.js', 50_000)).toBe(true)
    expect(shouldPrecompress('index.html', 2_000)).toBe(true)
    expect(shouldPrecompress('assets/index-abc.css', 30_000)).toBe(true)
  })

  it('leaves source maps, images and tiny files alone', () => {
    expect(shouldPrecompress('assets/index-abc.js.map', 500_000)).toBe(false)
    expect(shouldPrecompress('icons/icon-512.png', 40_000)).toBe(false)
    expect(shouldPrecompress('assets/tiny.js', 300)).toBe(false)
  })
})
