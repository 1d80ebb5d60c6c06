/**
 * `npm run bench`: every `tests/bench/*.bench.ts` (and the listed older files), one after another (they share two cores), with their
 * output. `npm run bench -- load` runs only the files whose name contains "load"; `npm run bench -- --list`
 * lists the benchmarks (with what each measures) and runs none. Exits 1 if any failed.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const dir = join('tests', 'bench')

/** The first sentence of a benchmark's opening comment: what it measures. */
function summary(path: string): string {
  const comment = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(path, 'utf8'))?.[1] ?? ''
  const text = comment
    .replace(/^\s*\* ?/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return (/^.*?[.:](\s|$)/.exec(text)?.[0] ?? text).trim()
}
/** Benchmarks that predate the `.bench.ts` naming and still belong to the run. */
const listed = ['api-load.ts']
const args = process.argv.slice(2)
const filters = args.filter((a) => !a.startsWith('--'))
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') || listed.includes(f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()

if (args.includes('--list')) {
  for (const file of files)
    console.log(`${file.replace(/\.(bench\.)?ts$/, '').padEnd(12)} ${summary(join(dir, file))}`)
  console.log(`\n${files.length} benchmarks; run one with: npm run bench -- <name>`)
  process.exit(0)
}

const failures: string[] = []
for (const file of files) {
  console.log(`\n▶ ${file}`)
  const t0 = Date.now()
  const r = spawnSync('npx', ['tsx', join(dir, file)], { stdio: 'inherit' })
  console.log(`  ${file}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  if (r.status !== 0) failures.push(file)
}
console.log(
  `\nbenchmarks: ${files.length - failures.length} ok, ${failures.length} failed${failures.length ? ` (${failures.join(', ')})` : ''}`,
)
process.exit(failures.length > 0 ? 1 : 0)
