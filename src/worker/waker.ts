/** Sleeps that something else can cut short: a control message, the `online` event, a fresh token. */
export interface Waker {
  sleep(ms: number): Promise<void>
  wake(): void
}

export function createWaker(): Waker {
  const sleepers = new Set<() => void>()
  return {
    sleep(ms) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          sleepers.delete(done)
          resolve()
        }
        const timer = setTimeout(done, ms)
        sleepers.add(done)
      })
    },
    wake() {
      for (const done of [...sleepers]) done()
    },
  }
}
