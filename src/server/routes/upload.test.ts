import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggedIn, type TestApp, login, setAllowance, startTestApp } from '../testing/harness.ts'

interface Part {
  name: string
  value: string | Buffer
  filename?: string
  type?: string
}

function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----pagecast-test-boundary'
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })

describe('image upload', () => {
  let t: TestApp
  let trial: LoggedIn
  let paid: LoggedIn
  beforeAll(async () => {
    t = await startTestApp()
    trial = await login(t.app, '7001')
    paid = await login(t.app, '7002')
    await setAllowance(t.app, '7002', { access_type: 'paid' })
  })
  afterAll(() => t.close())

  const upload = (who: LoggedIn | null, parts: Part[]) => {
    const { payload, headers } = multipart(parts)
    return t.app.inject({
      method: 'POST',
      url: '/api/v2/upload',
      payload,
      headers: { ...headers, ...(who?.auth ?? {}) },
    })
  }
  const image = (value: Buffer, filename = 'photo.png', type = 'image/png'): Part => ({
    name: 'image',
    value,
    filename,
    type,
  })

  it('re-encodes a real image, serves it from a stable public URL, and stores one copy per content', async () => {
    const png = await solid(64, 48).png().toBuffer()
    const res = await upload(paid, [image(png), { name: 'access_type', value: 'paid' }])
    expect(res.statusCode).toBe(200)
    const { url } = res.json() as { url: string }
    expect(url).toMatch(/^http:\/\/pagecast\.test\/uploads\/[a-f0-9]{40}\.png$/)
    const served = await t.app.inject({ url: new URL(url).pathname })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['cache-control']).toContain('immutable')
    expect((await sharp(served.rawPayload).metadata()).width).toBe(64)
    expect((await upload(paid, [image(png)])).json().url).toBe(url)
  })

  it('watermarks the images of a trial, whatever access_type the client claims', async () => {
    const png = await solid(400, 300).png().toBuffer()
    const plain = (await upload(paid, [image(png)])).json().url
    const marked = (await upload(trial, [image(png), { name: 'access_type', value: 'paid' }])).json().url
    expect(marked).not.toBe(plain)
    const pixels = async (url: string) =>
      await sharp((await t.app.inject({ url: new URL(url).pathname })).rawPayload)
        .raw()
        .toBuffer()
    expect((await pixels(marked)).equals(await pixels(plain))).toBe(false)
  })

  it('strips metadata and scales large images to at most 2048 px', async () => {
    const jpeg = await solid(3000, 1000)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret place' } })
      .toBuffer()
    expect((await sharp(jpeg).metadata()).exif).toBeDefined()
    const url = (await upload(paid, [image(jpeg, 'big.jpg', 'image/jpeg')])).json().url
    const meta = await sharp((await t.app.inject({ url: new URL(url).pathname })).rawPayload).metadata()
    expect(meta).toMatchObject({ format: 'jpeg', width: 2048 })
    expect(meta.exif).toBeUndefined()
  })

  it('refuses a text file that only claims to be a PNG, and an SVG, with 422', async () => {
    const fake = await upload(paid, [image(Buffer.from('this is not an image at all'), 'x.png', 'image/png')])
    expect(fake.statusCode).toBe(422)
    expect(fake.json().errors.image[0]).toMatch(/not an image/)
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    )
    const refused = await upload(paid, [image(svg, 'x.svg', 'image/svg+xml')])
    expect(refused.statusCode).toBe(422)
    const header = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100),
    ])
    expect((await upload(paid, [image(header)])).statusCode).toBe(422)
  })

  it('accepts images of several megabytes, above the 1 MB limit of JSON bodies', async () => {
    const noise = randomBytes(1200 * 1000 * 3)
    const png = await sharp(noise, { raw: { width: 1200, height: 1000, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer()
    expect(png.length).toBeGreaterThan(3_000_000)
    expect((await upload(paid, [image(png)])).statusCode).toBe(200)
  })

  it('refuses files over 8 MB with 413 and a message naming the limit', async () => {
    const res = await upload(paid, [image(Buffer.alloc(8 * 1024 * 1024 + 10, 1))])
    expect(res.statusCode).toBe(413)
    expect(res.json().message).toMatch(/too large.*8 MB/)
  })

  it('refuses an image of more than 40 megapixels as too large (413), not as "not an image"', async () => {
    const huge = await solid(8000, 6000).png().toBuffer()
    expect(huge.length).toBeLessThan(8 * 1024 * 1024)
    const res = await upload(paid, [image(huge)])
    expect(res.statusCode).toBe(413)
    expect(res.json().message).toMatch(/too large.*40 megapixels/)
  })

  it('refuses a missing file, extra fields, a bad access_type and a JSON body with 4xx', async () => {
    const png = await solid(8, 8).png().toBuffer()
    expect((await upload(paid, [{ name: 'access_type', value: 'paid' }])).statusCode).toBe(422)
    expect((await upload(paid, [image(png), { name: 'caption', value: 'x' }])).statusCode).toBe(422)
    expect((await upload(paid, [{ ...image(png), name: 'file' }])).statusCode).toBe(422)
    expect((await upload(paid, [image(png), { name: 'access_type', value: 'gold' }])).statusCode).toBe(422)
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v2/upload',
      headers: paid.auth,
      payload: { image: 'x' },
    })
    expect(json.statusCode).toBe(422)
  })

  it('requires the user own bearer token', async () => {
    const png = await solid(8, 8).png().toBuffer()
    expect((await upload(null, [image(png)])).statusCode).toBe(401)
  })

  it('answers 404 for uploads that do not exist or names that are not ours', async () => {
    expect((await t.app.inject({ url: `/uploads/${'a'.repeat(40)}.png` })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/uploads/..%2f..%2fetc%2fpasswd' })).statusCode).toBe(404)
  })
})

describe('upload rate limit', () => {
  it('answers 429 past the per-minute limit', async () => {
    const t = await startTestApp('pglite', { rateLimits: { upload: 2 } })
    try {
      const who = await login(t.app, '7100')
      const png = await solid(8, 8).png().toBuffer()
      const codes: number[] = []
      for (let i = 0; i < 3; i++) {
        const { payload, headers } = multipart([
          { name: 'image', value: png, filename: 'a.png', type: 'image/png' },
        ])
        codes.push(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/v2/upload',
              payload,
              headers: { ...headers, ...who.auth },
            })
          ).statusCode,
        )
      }
      expect(codes).toEqual([200, 200, 429])
    } finally {
      await t.close()
    }
  })
})
