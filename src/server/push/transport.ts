/**
 * The HTTPS request of one push to a browser's push service. The host is resolved once, every address it
 * answers is vetted (`addressRefusal`: no loopback, private, link-local, metadata, … address), and the
 * connection is made to the vetted addresses only: the socket's own lookup answers them, so a DNS answer
 * that changes between the check and the connection is never used. TLS still checks the certificate
 * against the host's name.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { request } from 'node:https'
import { isIP } from 'node:net'
import type { LookupFunction } from 'node:net'
import { addressRefusal } from './endpoints.ts'

/** The addresses a host resolves to. */
export type Resolve = (host: string) => Promise<string[]>

export const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address)

export class RefusedAddress extends Error {}

export interface TransportOptions {
  resolve?: Resolve | undefined
  /** Why an address is refused (default `addressRefusal`). */
  vet?: (address: string) => string | undefined
}

/** The host's addresses, each vetted; throws `RefusedAddress` when any is refused or there is none. */
export async function vettedAddresses(host: string, options: TransportOptions = {}): Promise<string[]> {
  const addresses = await (options.resolve ?? systemResolve)(host)
  if (addresses.length === 0) throw new RefusedAddress(`${host} has no address`)
  const vet = options.vet ?? addressRefusal
  for (const address of addresses) {
    const refusal = vet(address)
    if (refusal) throw new RefusedAddress(refusal)
  }
  return addresses
}

/** A socket lookup that answers the given addresses whatever name it is asked for. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }))
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries)
    else callback(null, entries[0]!.address, entries[0]!.family)
  }
}

/** POSTs to the push service; answers its status. Throws `RefusedAddress` without connecting. */
export async function postToPushService(
  endpoint: string,
  init: { headers: Record<string, string>; body: Buffer | null; timeoutMs: number },
  options: TransportOptions = {},
): Promise<number> {
  const url = new URL(endpoint)
  const addresses = await vettedAddresses(url.hostname.replace(/^\[|\]$/g, ''), options)
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: init.headers,
        agent: false,
        lookup: pinnedLookup(addresses),
        signal: AbortSignal.timeout(init.timeoutMs),
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end(init.body ?? undefined)
  })
}
