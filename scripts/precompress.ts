/**
 * A Vite build plugin that writes `.br` and `.gz` siblings of the text assets, so the static server can send
 * them compressed without compressing on every request (`@fastify/static` with `preCompressed: true`).
 * Uses node:zlib only. Files under 1 kB are left alone: compression does not pay for them.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/
const MIN_BYTES = 1024

export function shouldPrecompress(fileName: string, size: number): boolean {
  return COMPRESSIBLE.test(fileName) && !fileName.endsWith('.map') && size >= MIN_BYTES
}

export function precompress(): Plugin {
  return {
    name: 'pagecast-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      await Promise.all(
        Object.values(bundle).map(async (item) => {
          const source = item.type === 'chunk' ? item.code : item.source
          const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source)
          if (!shouldPrecompress(item.fileName, bytes.length)) return
          const path = join(dir, item.fileName)
          await writeFile(`${path}.gz`, gzipSync(bytes, { level: 9 }))
          await writeFile(
            `${path}.br`,
            brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          )
        }),
      )
    },
  }
}
