import { describe, expect, it } from 'vitest'
import { cutText, graphemeCount, initialsOf } from './text.ts'

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
const clusters = (text: string) => Array.from(segmenter.segment(text), (s) => s.segment)

/** A cut is a run of whole clusters of the original text, then the ellipsis. */
function expectWholeClusters(original: string, cut: string) {
  expect(cut.endsWith('…')).toBe(true)
  const kept = cut.slice(0, -1)
  const parts = clusters(original)
  let prefix = ''
  for (const part of parts) {
    if (prefix.trimEnd() === kept) break
    prefix += part
  }
  expect(prefix.trimEnd()).toBe(kept)
}

describe('cutText', () => {
  it('leaves a text no longer than the limit as it is, without an ellipsis', () => {
    expect(cutText('We open at 9 am.', 25)).toBe('We open at 9 am.')
    expect(cutText('a'.repeat(25), 25)).toBe('a'.repeat(25))
  })

  it('cuts Latin text after the limit with an ellipsis, dropping the space before it', () => {
    expect(cutText('a'.repeat(30), 25)).toBe(`${'a'.repeat(25)}…`)
    expect(cutText('Hello there friend', 6)).toBe('Hello…')
  })

  it('never splits a Khmer consonant from its subscript', () => {
    const text = 'សួស្តី ក្សត្រ ស្រស់ស្អាត ប្រាប់តម្លៃ'
    const cut = cutText(text, 10)
    expectWholeClusters(text, cut)
    expect(cut).not.toMatch(/\u17D2…$/u)
    // Ten clusters, whatever the code points they hold.
    expect(graphemeCount(cut.slice(0, -1))).toBe(10)
    // A cut at code points (the old behaviour) would end inside "ស្តី", after its COENG.
    expect(cutText('សួស្តីបង', 2)).toBe('សួស្តី…')
  })

  it('never splits a Bengali conjunct or a vowel sign from its consonant', () => {
    const text = 'বিজ্ঞাপনের দাম কত টাকা জানাবেন'
    for (let max = 1; max < 12; max++) {
      const cut = cutText(text, max)
      expectWholeClusters(text, cut)
      expect(cut).not.toMatch(/\u09CD…$/u)
    }
    expect(cutText('বিজ্ঞাপন', 2)).toBe('বিজ্ঞা…')
  })

  it('keeps an emoji family, a flag and a skin tone whole', () => {
    const text = '👨‍👩‍👧‍👦🏳️‍🌈👍🏽 thanks'
    expect(cutText(text, 1)).toBe('👨‍👩‍👧‍👦…')
    expect(cutText(text, 2)).toBe('👨‍👩‍👧‍👦🏳️‍🌈…')
    expect(cutText(text, 3)).toBe('👨‍👩‍👧‍👦🏳️‍🌈👍🏽…')
    expect(graphemeCount(text)).toBe(10)
  })

  it('gives an avatar two capitals in Latin names and one whole letter in scripts without capitals', () => {
    expect(initialsOf('Kanha Bakery')).toBe('KB')
    expect(initialsOf('ana lópez')).toBe('AL')
    expect(initialsOf('তাহমিনা হোসেন')).toBe('তা')
    expect(initialsOf('ស្រីពៅ ចាន់')).toBe('ស្រី')
    expect(initialsOf('زینب احمد')).toBe('ز')
    expect(initialsOf('  ')).toBe('?')
    expect(initialsOf(undefined)).toBe('?')
  })
})
