import { describe, expect, it } from 'vitest'
import { releasedSchemas } from './fixtures/released-schemas.ts'
import { schemaVersions } from './schema.ts'

const numbers = schemaVersions.map((step) => step.version)

describe('the schema versions', () => {
  it('are strictly increasing', () => {
    for (let i = 1; i < numbers.length; i++)
      expect(numbers[i], `version ${numbers[i]} after ${numbers[i - 1]}`).toBeGreaterThan(numbers[i - 1]!)
  })

  it('keep every released version, in place: new ones only come after the highest ever released', () => {
    const released = [...new Set(releasedSchemas.flatMap((r) => r.versions.map((v) => v.version)))].sort(
      (a, b) => a - b,
    )
    expect(numbers.slice(0, released.length)).toEqual(released)
  })
})
