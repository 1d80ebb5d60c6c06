import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts

describe('the scripts a contributor expects', () => {
  it('npm run audit is the security audit of the shipped dependencies; Lighthouse is npm run lighthouse', () => {
    expect(scripts.audit).toBe('npm audit --omit=dev')
    expect(scripts.lighthouse).toMatch(/lighthouse/)
  })

  it('npm run bench -- --list names every benchmark and runs none', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/bench/run.ts', '--list'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(run.status).toBe(0)
    const names = readdirSync(join(root, 'tests', 'bench'))
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => f.replace(/\.bench\.ts$/, ''))
      .concat('api-load')
    for (const name of names) expect(run.stdout).toMatch(new RegExp(`^${name} `, 'm'))
    expect(run.stdout).toMatch(new RegExp(`^${names.length} benchmarks`, 'm'))
    expect(run.stdout).not.toContain('▶')
  })
})
