/**
 * Upload processing: the bytes decide what a file is (never its name or declared type). Accepted images are
 * re-encoded, which drops every metadata block (location, camera) and anything appended to the file, and
 * scaled to at most 2048 px. A trial's images carry the Pagecast watermark.
 */
import sharp from 'sharp'

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif'])
export const MAX_EDGE_PX = 2048
/** Decompression bombs: a small file claiming a huge canvas is refused before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000

export class NotAnImageError extends Error {}
/** A real image whose canvas is over MAX_INPUT_PIXELS: refused as too large, never decoded. */
export class ImageTooLargeError extends Error {}

export interface ProcessedImage {
  data: Buffer
  ext: 'jpg' | 'png' | 'webp'
  contentType: string
  width: number
  height: number
}

function watermarkSvg(width: number, height: number): Buffer {
  const size = Math.max(12, Math.round(Math.min(width, height) * 0.06))
  const pad = Math.round(size * 0.6)
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <text x="${width - pad}" y="${height - pad}" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, sans-serif"
        font-weight="bold" font-size="${size}" fill="#ffffff" fill-opacity="0.75" stroke="#000000" stroke-opacity="0.35"
        stroke-width="${Math.max(1, Math.round(size / 16))}">Pagecast</text>
    </svg>`,
  )
}

export async function processImage(input: Buffer, watermark: boolean): Promise<ProcessedImage> {
  let meta: sharp.Metadata
  try {
    // Only the header is read here, so the canvas size can be told apart from a file that is no image.
    meta = await sharp(input, { limitInputPixels: false }).metadata()
  } catch {
    throw new NotAnImageError('The file is not an image (JPEG, PNG, WebP or GIF).')
  }
  const format = meta.format
  if (!format || !ACCEPTED.has(format))
    throw new NotAnImageError('Only JPEG, PNG, WebP and GIF images are accepted.')
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS)
    throw new ImageTooLargeError(
      `The image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted (this one has ${Math.round(((meta.width ?? 0) * (meta.height ?? 0)) / 100_000) / 10}).`,
    )
  try {
    const resized = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: MAX_EDGE_PX, height: MAX_EDGE_PX, fit: 'inside', withoutEnlargement: true })
      .toBuffer({ resolveWithObject: true })
    const { width, height } = resized.info
    let pipeline = sharp(resized.data)
    if (watermark) pipeline = pipeline.composite([{ input: watermarkSvg(width, height), top: 0, left: 0 }])
    if (format === 'jpeg') {
      return {
        data: await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer(),
        ext: 'jpg',
        contentType: 'image/jpeg',
        width,
        height,
      }
    }
    if (format === 'webp') {
      return {
        data: await pipeline.webp({ quality: 85 }).toBuffer(),
        ext: 'webp',
        contentType: 'image/webp',
        width,
        height,
      }
    }
    // PNG, and the first frame of a GIF: lossless.
    return {
      data: await pipeline.png({ compressionLevel: 9 }).toBuffer(),
      ext: 'png',
      contentType: 'image/png',
      width,
      height,
    }
  } catch {
    throw new NotAnImageError('The image is damaged or could not be decoded.')
  }
}
