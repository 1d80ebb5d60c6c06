/** Finds the address Vite's dev server prints ("➜  Local:   http://localhost:5173/"), colours or not. */
export function viteLocalAddress(output: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '')
  return /Local:\s+(https?:\/\/\S+)/.exec(plain)?.[1]
}
