import { describe, expect, it } from 'vitest'
import { compressImage } from './compress-image.ts'

/** A photo-sized picture of noise over gradients: JPEG cannot make it small, like a real detailed photo. */
async function noisyJpeg(width: number, height: number, quality = 0.95): Promise<File> {
  const canvas = new OffscreenCanvas(width, height)
  const ctx = canvas.getContext('2d')!
  const image = ctx.createImageData(width, height)
  const px = image.data
  let seed = 12345
  for (let i = 0; i < px.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const n = seed & 0xff
    const x = (i / 4) % width
    px[i] = (n + x) & 0xff
    px[i + 1] = (n >> 1) + 64
    px[i + 2] = 255 - n
    px[i + 3] = 255
  }
  ctx.putImageData(image, 0, 0)
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality })
  return new File([blob], 'IMG_0001.JPG', { type: 'image/jpeg' })
}

/** Inserts an EXIF block saying "rotate 90° clockwise to show" (orientation 6) after the JPEG's SOI marker. */
async function withOrientation6(file: File): Promise<File> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  // prettier-ignore
  const tiff = [
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF header, first IFD at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, // Orientation (SHORT) = 6
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ]
  const payload = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00, ...tiff] // "Exif\0\0"
  const length = payload.length + 2
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...payload]
  const out = new Uint8Array(bytes.length + app1.length)
  out.set(bytes.subarray(0, 2))
  out.set(app1, 2)
  out.set(bytes.subarray(2), 2 + app1.length)
  return new File([out], file.name, { type: 'image/jpeg' })
}

describe('compressImage (in Chromium)', () => {
  it('makes a 4000x3000 photo over 3 MB a JPEG under 1 MB, 2048 px on its long side, that decodes', async () => {
    const photo = await noisyJpeg(4000, 3000)
    expect(photo.size).toBeGreaterThan(3 * 1024 * 1024)
    const small = await compressImage(photo)
    expect(small.size).toBeLessThan(1024 * 1024)
    expect(small.type).toBe('image/jpeg')
    expect(small.name).toBe('IMG_0001.jpg')
    const decoded = await createImageBitmap(small)
    expect(Math.max(decoded.width, decoded.height)).toBe(2048)
    expect(decoded.width / decoded.height).toBeCloseTo(4 / 3, 1)
    decoded.close()
  })

  it('draws the picture upright as its EXIF orientation says', async () => {
    const sideways = await withOrientation6(await noisyJpeg(400, 200))
    const upright = await compressImage(sideways, { keepUnder: 0 })
    expect(upright).not.toBe(sideways)
    const decoded = await createImageBitmap(upright, { imageOrientation: 'none' })
    expect([decoded.width, decoded.height]).toEqual([200, 400])
    decoded.close()
  })

  it('sends a GIF and an already small image as they are', async () => {
    const gif = new File([new Uint8Array(2 * 1024 * 1024)], 'moving.gif', { type: 'image/gif' })
    expect(await compressImage(gif)).toBe(gif)
    const small = await noisyJpeg(300, 200)
    expect(small.size).toBeLessThan(1024 * 1024)
    expect(await compressImage(small)).toBe(small)
  })

  it('sends a file the browser cannot decode as it is (the server decides)', async () => {
    const odd = new File([new Uint8Array(2 * 1024 * 1024).fill(7)], 'photo.heic', { type: 'image/heic' })
    expect(await compressImage(odd)).toBe(odd)
  })
})
