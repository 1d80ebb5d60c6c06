/**
 * Instances on one database are one house: rate-limit counts and uploaded images live in the database, not
 * in an instance's memory or folder. Two PGlite instances cannot open one folder, so on PGlite the same
 * facts are shown across a restart.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { buildApp } from './app.ts'
import {
  type LoggedIn,
  TEST_DATABASE_URL,
  createTestDatabase,
  fakeGraph,
  login,
  pageToken,
  startTestApp,
  testConfig,
} from './testing/harness.ts'

const solid = (size: number, r: number) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g: 120, b: 200 } } })
    .png()
    .toBuffer()

function upload(app: FastifyInstance, who: LoggedIn, png: Buffer) {
  const boundary = '----pagecast-shared-state'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return app.inject({
    method: 'POST',
    url: '/api/v2/upload',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...who.auth },
  })
}

const loginCode = async (app: FastifyInstance, facebookId: string) =>
  (await app.inject({ method: 'POST', url: '/api/v2/login', payload: { access_token: `fb:${facebookId}` } }))
    .statusCode

const pathOf = (res: { json(): unknown }) => new URL((res.json() as { url: string }).url).pathname

describe.skipIf(!TEST_DATABASE_URL)(
  TEST_DATABASE_URL
    ? 'two instances on one PostgreSQL database'
    : 'two instances on one PostgreSQL database: skipped (TEST_DATABASE_URL not set)',
  () => {
    it("serve each other's uploads and count the login and per-user limits together", async () => {
      const db = await createTestDatabase(TEST_DATABASE_URL!)
      const config = testConfig({ DATABASE_URL: db.url })
      const [one, two] = await Promise.all(
        [0, 1].map(() => buildApp({ config, graph: fakeGraph, rateLimits: { login: 3, network: 2 } })),
      )
      try {
        const who = await login(one!, '9101')
        const png = await solid(32, 10)
        const res = await upload(one!, who, png)
        expect(res.statusCode).toBe(200)
        const served = await two!.inject({ url: pathOf(res) })
        expect(served.statusCode).toBe(200)
        expect(served.headers['content-type']).toBe('image/png')
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable')
        expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin')
        expect(served.headers['x-content-type-options']).toBe('nosniff')
        expect((await sharp(served.rawPayload).metadata()).width).toBe(32)

        expect([await loginCode(two!, '9102'), await loginCode(one!, '9103')]).toEqual([200, 200])
        expect([await loginCode(two!, '9104'), await loginCode(one!, '9105')]).toEqual([429, 429])

        const page = { id: '910', name: 'P', access_token: pageToken('910', who.user.facebook_id) }
        const register = (app: FastifyInstance) =>
          app
            .inject({ method: 'POST', url: '/api/v2/page', headers: who.auth, payload: page })
            .then((r) => r.statusCode)
        expect([await register(one!), await register(two!), await register(one!)]).toEqual([200, 200, 429])
      } finally {
        await Promise.all([one!.close(), two!.close()])
        await db.drop()
      }
    })
  },
)

// Each test starts the embedded database more than once: on a busy machine one start takes tens of seconds.
describe('state kept in the database (PGlite)', { timeout: 120_000 }, () => {
  it('keeps an upload and the login count across a restart on the same data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagecast-shared-'))
    const config = testConfig({ DATA_DIR: dir })
    try {
      const first = await buildApp({ config, graph: fakeGraph, rateLimits: { login: 2 } })
      const res = await upload(first, await login(first, '9201'), await solid(24, 30))
      await first.close()
      // Nothing of it is left in the folder beside the database.
      expect(existsSync(join(dir, 'uploads'))).toBe(false)

      const second = await buildApp({ config, graph: fakeGraph, rateLimits: { login: 2 } })
      try {
        const served = await second.inject({ url: pathOf(res) })
        expect(served.statusCode).toBe(200)
        expect((await sharp(served.rawPayload).metadata()).width).toBe(24)
        expect([await loginCode(second, '9202'), await loginCode(second, '9203')]).toEqual([200, 429])
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('moves images an older version left in DATA_DIR/uploads into the database at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagecast-shared-'))
    const old = join(dir, 'uploads')
    mkdirSync(old)
    const name = `${'b'.repeat(40)}.png`
    const png = await solid(16, 50)
    writeFileSync(join(old, name), png)
    writeFileSync(join(old, 'notes.txt'), 'not an upload')
    try {
      const app = await buildApp({ config: testConfig({ DATA_DIR: dir }), graph: fakeGraph })
      try {
        const served = await app.inject({ url: `/uploads/${name}` })
        expect(served.statusCode).toBe(200)
        expect(served.headers['content-type']).toBe('image/png')
        expect(served.rawPayload.equals(png)).toBe(true)
        expect(existsSync(join(old, name))).toBe(false)
        expect(existsSync(join(old, 'notes.txt'))).toBe(true)
      } finally {
        await app.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses new images with 507 once UPLOADS_MAX_TOTAL_BYTES is reached, and still takes a stored one', async () => {
    const t = await startTestApp('pglite', {}, { UPLOADS_MAX_TOTAL_BYTES: '4000' })
    try {
      const who = await login(t.app, '9301')
      const small = await solid(8, 60)
      expect((await upload(t.app, who, small)).statusCode).toBe(200)
      const noisy = await sharp(randomBytes(64 * 64 * 3), {
        raw: { width: 64, height: 64, channels: 3 },
      })
        .png()
        .toBuffer()
      const full = await upload(t.app, who, noisy)
      expect(full.statusCode).toBe(507)
      expect(full.json().message).toMatch(/storage is full/)
      expect((await upload(t.app, who, small)).statusCode).toBe(200)
    } finally {
      await t.close()
    }
  })
})
