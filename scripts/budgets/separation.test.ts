import { describe, expect, it } from 'vitest'
import { judgeSeparation, separateFeatures } from './separation.ts'

const plans = separateFeatures.find((f) => f.name === 'plans')!
const markdown = separateFeatures.find((f) => f.name === 'terms markdown')!

describe('chunk separation of heavy features', () => {
  it('accepts a feature that lives only in a lazy chunk', () => {
    const files = new Map([
      ['assets/index.js', ['src/main.tsx']],
      ['assets/plans.js', ['src/features/plans/components/plans-page.tsx']],
    ])
    expect(judgeSeparation(plans, files, new Set(['assets/index.js']))).toEqual({
      state: 'separate',
      chunks: ['assets/plans.js'],
    })
  })

  it('rejects a feature bundled into a first-load chunk', () => {
    const files = new Map([['assets/index.js', ['src/main.tsx', 'node_modules/react-markdown/lib/index.js']]])
    expect(judgeSeparation(markdown, files, new Set(['assets/index.js'])).state).toBe('in-initial')
  })

  it('reports a feature that is not in the build as not built yet', () => {
    const files = new Map([['assets/index.js', ['src/main.tsx']]])
    expect(judgeSeparation(plans, files, new Set(['assets/index.js'])).state).toBe('not-built')
  })
})
