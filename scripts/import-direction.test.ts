import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function directionErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'layers/direction').map((m) => m.message)
}

describe('the import direction lint', () => {
  it('fails on a feature importing another feature', async () => {
    const errors = await directionErrors('src/features/a/x.ts', "import { b } from '../b/x.ts'\nexport const a = b\n")
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/a feature never imports another feature \(a -> b\)/)
  })

  it('lets a feature import its own files and shared code', async () => {
    const code = "import { x } from './api/x.ts'\nimport { y } from '../../shared/y.ts'\nexport const a = [x, y]\n"
    expect(await directionErrors('src/features/a/index.ts', code)).toEqual([])
  })

  it('fails on a feature importing the worker, and on shared importing a feature', async () => {
    expect(await directionErrors('src/features/a/x.ts', "export * from '../../worker/run-job.ts'\n")).toHaveLength(1)
    expect(await directionErrors('src/shared/bulk/x.ts', "export * from '../../features/bulk/x.ts'\n")).toHaveLength(1)
  })

  it('keeps browser code out of the server and server code out of the app', async () => {
    expect(await directionErrors('src/server/x.ts', "export * from '../shared/db/db.ts'\n")).toHaveLength(1)
    expect(await directionErrors('src/server/x.ts', "export * from '../shared/contracts/api.ts'\n")).toEqual([])
    expect(await directionErrors('src/app/x.ts', "export * from '../server/app.ts'\n")).toHaveLength(1)
    expect(await directionErrors('src/worker/x.ts', "export * from '../shared/ui/avatar.tsx'\n")).toHaveLength(1)
  })
})
