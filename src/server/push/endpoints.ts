/**
 * Which push endpoints the server sends to. A subscription's endpoint comes from the browser, so whoever
 * holds a session can send any URL: the server only ever pushes to the push services browsers hand out
 * (and, with the sandbox on, to the sandbox's own push service on the app's origin), and only to public
 * addresses of them.
 *
 * - `endpointRefusal` is the rule on the URL, checked when a subscription is stored and again before each
 *   push (a subscription stored under older rules is not pushed to).
 * - `addressRefusal` is the rule on each address the push service's host resolves to, checked before the
 *   connection (see `transport.ts`, which connects to the vetted address only).
 */
import { BlockList, isIP } from 'node:net'
import type { ServerConfig } from '../config.ts'

/** Where the sandbox's push service listens (on the app's own origin). */
export const SANDBOX_PUSH_PATH = '/sandbox/push/'

/**
 * The hosts of the push services browsers use: Chrome and the Chromium browsers (Firebase Cloud
 * Messaging), Firefox (Mozilla's autopush), Edge (Windows Push Notification Services, one host per
 * region) and Safari (Apple's push service).
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
] as const

/** One DNS label: what `*` stands for in a host above. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

export function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.some((pattern) => {
    if (!pattern.startsWith('*.')) return hostname === pattern
    const suffix = pattern.slice(1)
    return hostname.endsWith(suffix) && LABEL.test(hostname.slice(0, -suffix.length))
  })
}

export type EndpointRules = Pick<ServerConfig, 'publicUrl' | 'sandboxEnabled'>

/** The sandbox's push service: the app's own origin and path, with the sandbox on. */
export function isSandboxEndpoint(url: URL, rules: EndpointRules): boolean {
  return (
    rules.sandboxEnabled &&
    url.origin === new URL(rules.publicUrl).origin &&
    url.pathname.startsWith(SANDBOX_PUSH_PATH)
  )
}

/** Why an endpoint cannot be pushed to, or undefined when it can. */
export function endpointRefusal(endpoint: string, rules: EndpointRules): string | undefined {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'The endpoint must be a URL.'
  }
  if (url.username || url.password) return 'The endpoint must not carry credentials.'
  if (isSandboxEndpoint(url, rules)) return undefined
  if (url.protocol !== 'https:' || url.port !== '' || !isPushServiceHost(url.hostname))
    return `The endpoint must be an https:// URL of a browser's push service (${PUSH_SERVICE_HOSTS.join(', ')}).`
  return undefined
}

/** Addresses a push is never sent to, whatever a push service's host resolves to. */
const REFUSED = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (and a cloud metadata address)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (and the cloud metadata address 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (and the cloud metadata address fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6')

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '')
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
  const start = parse(head)
  const end = tail === undefined ? [] : parse(tail)
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end]
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

/**
 * The IPv4 address an IPv6 address stands for, when it carries one: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address)
  const zeros = (from: number, to: number) => g.slice(from, to).every((v) => v === 0)
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!)
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!)
  return undefined
}

/** Why a push must not connect to this address (loopback, private, link-local, …), or undefined. */
export function addressRefusal(address: string): string | undefined {
  const family = isIP(address)
  if (family === 0) return `${address} is not an IP address`
  const v4 = family === 6 ? embeddedIpv4(address) : address
  const refused = v4 !== undefined ? REFUSED.check(v4, 'ipv4') : REFUSED.check(address, 'ipv6')
  return refused ? `${address} is not a public address` : undefined
}
