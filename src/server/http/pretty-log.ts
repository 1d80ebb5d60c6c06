/**
 * The server's log as a person reads it in a terminal: one line per request (time, method, address, status,
 * duration) and one line per other event, instead of pino's JSON. Used only when standard output is a
 * terminal outside production (`logFormat`); pipes, files and production keep the JSON lines, which log
 * collectors parse. It formats what pino already wrote, after redaction, so it can reveal nothing more.
 */

export type LogFormat = 'pretty' | 'json'

/** Pretty in a terminal, JSON when piped or in production. */
export function logFormat(env: { NODE_ENV?: string }, isTty: boolean | undefined): LogFormat {
  return isTty && env.NODE_ENV !== 'production' ? 'pretty' : 'json'
}

interface Line {
  level?: number
  time?: number
  msg?: string
  reqId?: string
  req?: { method?: string; url?: string }
  res?: { statusCode?: number }
  responseTime?: number
  err?: { message?: string; stack?: string }
}

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
}
/** Requests whose start was seen and whose end is awaited; bounded, so a lost end never grows it. */
const MAX_OPEN = 1_000

function clock(time: number | undefined): string {
  return new Date(time ?? Date.now()).toTimeString().slice(0, 8)
}

export function prettyLogStream(out: { write(text: string): void }, color = false) {
  const open = new Map<string, { method: string; url: string }>()
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text)
  const statusColour = (status: number) => (status >= 500 ? 31 : status >= 400 ? 33 : 32)
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) {
        if (!raw.trim()) continue
        let line: Line
        try {
          line = JSON.parse(raw) as Line
        } catch {
          out.write(`${raw}\n`)
          continue
        }
        if (line.msg === 'incoming request' && line.reqId && line.req) {
          if (open.size >= MAX_OPEN) open.delete(open.keys().next().value as string)
          open.set(line.reqId, { method: line.req.method ?? '?', url: line.req.url ?? '?' })
          continue
        }
        if (line.msg === 'request completed' && line.reqId) {
          const req = open.get(line.reqId) ?? { method: '?', url: '?' }
          open.delete(line.reqId)
          const status = line.res?.statusCode ?? 0
          const ms = line.responseTime === undefined ? '' : ` ${line.responseTime.toFixed(1)} ms`
          out.write(
            `${clock(line.time)} ${req.method} ${req.url} ${paint(statusColour(status), String(status))}${ms}\n`,
          )
          continue
        }
        const level = LEVELS[line.level ?? 30] ?? 'info'
        const tag = level === 'info' ? '' : `${paint(level === 'warn' ? 33 : 31, level.toUpperCase())} `
        const err = line.err
          ? `: ${(line.level ?? 30) >= 50 ? (line.err.stack ?? line.err.message) : line.err.message}`
          : ''
        out.write(`${clock(line.time)} ${tag}${line.msg ?? ''}${err}\n`)
      }
    },
  }
}
