import { describe, expect, it } from 'vitest'
import { addressRefusal } from './endpoints.ts'

describe('the addresses a push may connect to', () => {
  it('refuses loopback, private, link-local, carrier-grade NAT, metadata, multicast and unspecified ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.100.100.200',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      // IPv4 carried in IPv6.
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
    ])
      expect(addressRefusal(address), address).toMatch(/not a public address/)
  })

  it('lets public addresses through, IPv4 in IPv6 included', () => {
    for (const address of [
      '142.250.74.10',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2607:f8b0:4004:c1b::5f',
      '2a00:1450:4001:80b::200a',
      '::ffff:142.250.74.10',
      '64:ff9b::8efa:4a0a',
      '2002:8efa:4a0a::1',
    ])
      expect(addressRefusal(address), address).toBeUndefined()
  })

  it('refuses what is not an address', () => {
    expect(addressRefusal('localhost')).toMatch(/not an IP address/)
  })
})
