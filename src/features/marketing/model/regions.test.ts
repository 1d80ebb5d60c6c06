import { describe, expect, it } from 'vitest'
import { regionList, regionName, UNREACHED_SUBSCRIBER_REGIONS } from './regions.ts'

describe('region names', () => {
  it('names regions in Khmer from CLDR, also where the browser has no Khmer', () => {
    expect(regionName('MX', 'km')).toBe('ម៉ិកស៊ិក')
    expect(regionName('au', 'km')).toBe('អូស្ត្រាលី')
    expect(regionName('EU', 'km')).toBe('សហភាព​អឺរ៉ុប')
    // No English word in the Khmer list of the regions marketing messages never reach.
    const list = regionList(UNREACHED_SUBSCRIBER_REGIONS, 'km', false)
    expect(list).not.toMatch(/[A-Za-z]/)
    expect(list).toContain(' និង ')
    expect(regionList(['KH', 'TH'], 'km', false)).toBe('កម្ពុជា និង\u200bថៃ')
  })

  it("takes the browser's names in the other languages", () => {
    expect(regionName('MX', 'es')).toBe('México')
    expect(regionName('KR', 'id')).toBe('Korea Selatan')
    expect(regionList(['MX', 'AU'], 'en')).toBe('Australia and Mexico')
  })
})
