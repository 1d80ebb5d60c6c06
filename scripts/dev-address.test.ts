import { describe, expect, it } from 'vitest'
import { viteLocalAddress } from './dev-address.ts'

describe('npm run dev', () => {
  it("finds Vite's local address in its banner, coloured or plain", () => {
    const coloured =
      '\u001b[32m  VITE v8.3.8\u001b[39m  ready in 900 ms\n\n  \u001b[32m➜\u001b[39m  \u001b[1mLocal\u001b[22m:   \u001b[36mhttp://localhost:\u001b[1m5174\u001b[22m/\u001b[39m\n'
    expect(viteLocalAddress(coloured)).toBe('http://localhost:5174/')
    expect(viteLocalAddress('  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host')).toBe(
      'http://localhost:5173/',
    )
    expect(viteLocalAddress('  VITE v8 ready')).toBeUndefined()
  })
})
