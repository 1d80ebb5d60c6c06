/** A test's TCP listener on loopback that counts the connections it receives. */
import { type AddressInfo, type Server, createServer } from 'node:net'

/** Listeners on 127.0.0.1 (and ::1 where the machine has it) on one port, counting their connections. */
export async function loopbackListener(): Promise<{
  port: number
  connections: () => number
  close(): Promise<void>
}> {
  let count = 0
  const servers: Server[] = []
  const listen = (host: string, port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer((socket) => {
        count++
        socket.destroy()
      })
      server.once('error', () => resolve(undefined))
      server.listen(port, host, () => resolve(server))
    })
  const v4 = await listen('127.0.0.1', 0)
  if (!v4) throw new Error('no loopback listener')
  servers.push(v4)
  const port = (v4.address() as AddressInfo).port
  const v6 = await listen('::1', port)
  if (v6) servers.push(v6)
  return {
    port,
    connections: () => count,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
    },
  }
}
