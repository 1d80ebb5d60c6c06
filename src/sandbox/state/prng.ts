/** A small seeded PRNG (mulberry32) and helpers: the same seed always yields the same demo data. */
export type Rng = () => number

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Mixes a seed with a label so independent streams (per page, per conversation) stay stable. */
export function subSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0
  return h
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!
}

export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1))
}

/** Passes over `draws` draws of the stream, so what follows comes out as if they had been used. */
export function skip(rng: Rng, draws: number): void {
  for (let k = 0; k < draws; k++) rng()
}

/**
 * A numeric id of `digits` digits, like the network's page and person ids: one draw per digit, the first
 * never 0. Digits are gathered 15 at a time (exact in a double): an id is a few strings, not one per digit.
 */
export function numericId(rng: Rng, digits: number): string {
  let s = ''
  let chunk = 1 + Math.floor(rng() * 9)
  let size = 1
  for (let n = 1; n < digits; n++) {
    if (size === 15) {
      s += String(chunk).padStart(size, '0')
      chunk = 0
      size = 0
    }
    chunk = chunk * 10 + Math.floor(rng() * 10)
    size++
  }
  return s + String(chunk).padStart(size, '0')
}
