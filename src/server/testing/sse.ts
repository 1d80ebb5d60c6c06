/** A reader of the event stream for tests: opens `GET /api/v2/events` on a listening app and collects frames. */
export interface SseFrame {
  id?: string
  event?: string
  data?: unknown
  comment?: string
}

export interface SseReader {
  frames: SseFrame[]
  status: number
  headers: Headers
  /** Resolves once `count` frames (comments left out) have arrived that match, polling up to `timeoutMs`. */
  waitFor(match: (f: SseFrame) => boolean, count?: number, timeoutMs?: number): Promise<SseFrame[]>
  close(): void
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const abort = new AbortController()
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const frames: SseFrame[] = []
  if (res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let cut: number
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            const f: SseFrame = {}
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) f.comment = line.slice(1).trim()
              else if (line.startsWith('id: ')) f.id = line.slice(4)
              else if (line.startsWith('event: ')) f.event = line.slice(7)
              else if (line.startsWith('data: ')) f.data = JSON.parse(line.slice(6))
            }
            frames.push(f)
          }
        }
      } catch {
        // aborted
      }
    })()
  }
  return {
    frames,
    status: res.status,
    headers: res.headers,
    async waitFor(match, count = 1, timeoutMs = 10_000) {
      const start = Date.now()
      for (;;) {
        const hits = frames.filter(match)
        if (hits.length >= count) return hits
        if (Date.now() - start > timeoutMs)
          throw new Error(`waited ${timeoutMs} ms for ${count} frames; have ${JSON.stringify(frames)}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    close: () => abort.abort(),
  }
}
