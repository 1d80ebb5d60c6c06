/**
 * The `uploads` table: re-encoded images kept in the database, so every instance on it serves every upload.
 * Names are content hashes: saving the same bytes again is a no-op. The total size is capped.
 */
import { readFile, readdir, rmdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Store } from '../db/store.ts'

export const UPLOAD_NAME = /^[a-f0-9]{40}\.(jpg|png|webp)$/
const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' }
/** Serialises the size check and the insert across instances; any fixed 64-bit number. */
const UPLOADS_LOCK_KEY = 7_305_202_612

export const contentTypeOf = (name: string): string => TYPES[name.split('.').pop() ?? ''] ?? ''

export class UploadsFullError extends Error {}

export interface StoredUpload {
  contentType: string
  bytes: Buffer
}

/** Stores `bytes` under `name` unless stored already; refuses with UploadsFullError past `maxTotalBytes`. */
export async function saveUpload(
  db: Store,
  name: string,
  bytes: Buffer,
  maxTotalBytes: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await tx.query('SELECT 1 FROM uploads WHERE name = $1', [name])).length > 0) return
    await tx.query('SELECT pg_advisory_xact_lock($1)', [UPLOADS_LOCK_KEY])
    const [used] = await tx.query<{ total: number }>(
      'SELECT coalesce(sum(size), 0)::bigint AS total FROM uploads',
    )
    if (used!.total + bytes.length > maxTotalBytes) throw new UploadsFullError()
    await tx.query(
      `INSERT INTO uploads (name, content_type, size, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING`,
      [name, contentTypeOf(name), bytes.length, bytes],
    )
  })
}

export async function loadUpload(db: Store, name: string): Promise<StoredUpload | undefined> {
  const [row] = await db.query<{ content_type: string; bytes: Uint8Array }>(
    'SELECT content_type, bytes FROM uploads WHERE name = $1',
    [name],
  )
  if (!row) return undefined
  return {
    contentType: row.content_type,
    bytes: Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.length),
  }
}

/**
 * Moves images an older version kept under `dir` (DATA_DIR/uploads) into the table, whatever the cap, so
 * their URLs keep working on every instance. Each file is deleted once its row is committed (an empty file is
 * left alone); the folder goes when it is empty. Returns how many were moved.
 */
export async function importUploadFolder(db: Store, dir: string): Promise<number> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw err
  }
  let moved = 0
  for (const name of names.filter((n) => UPLOAD_NAME.test(n))) {
    const bytes = await readFile(join(dir, name))
    if (bytes.length === 0) continue
    await db.query(
      `INSERT INTO uploads (name, content_type, size, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING`,
      [name, contentTypeOf(name), bytes.length, bytes],
    )
    await unlink(join(dir, name))
    moved++
  }
  await rmdir(dir).catch(() => undefined)
  return moved
}
