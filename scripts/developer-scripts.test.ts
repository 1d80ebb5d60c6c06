import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
    for (const name of ['api-load', 'bulk', 'inbox', 'load'])
      expect(run.stdout).toMatch(new RegExp(`^${name} `, 'm'))
    expect(run.stdout).toMatch(/4 benchmarks/)
    expect(run.stdout).not.toContain('▶')
  })
})
