/**
 * Photos are made small in the browser before they are uploaded: a phone photo of 4 to 12 MB becomes a JPEG
 * of at most `maxEdge` px on its long side and under `maxBytes`, so a reply with a picture goes over a weak
 * link in seconds. The picture is drawn upright (the EXIF orientation is applied while decoding) and its
 * metadata (location, camera) is not carried over. A GIF (it may move) and an image already small enough are
 * sent as they are; a file the browser cannot decode is sent as is too, and the server decides.
 */

export interface CompressOptions {
  /** Long side of the result, in pixels. */
  maxEdge?: number
  /** The result is made smaller until it is under this size. */
  maxBytes?: number
  /** A file at or under this size is sent as is (unless it is larger than `maxEdge`, which is not checked). */
  keepUnder?: number
}

export const COMPRESS_MAX_EDGE_PX = 2048
export const COMPRESS_MAX_BYTES = 1024 * 1024
/** JPEG qualities tried in turn; below the last one the picture is scaled down instead. */
const QUALITIES = [0.85, 0.75, 0.65, 0.55, 0.45] as const
const SCALE_STEP = 0.75
const MIN_EDGE_PX = 320

type Surface =
  | { kind: 'offscreen'; canvas: OffscreenCanvas; ctx: OffscreenCanvasRenderingContext2D }
  | { kind: 'element'; canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D }

function surface(width: number, height: number): Surface | undefined {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height)
    const ctx = canvas.getContext('2d')
    if (ctx) return { kind: 'offscreen', canvas, ctx }
  }
  if (typeof document === 'undefined') return undefined
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const ctx = canvas.getContext('2d')
  return ctx ? { kind: 'element', canvas, ctx } : undefined
}

function encode(s: Surface, quality: number): Promise<Blob | null> {
  if (s.kind === 'offscreen') return s.canvas.convertToBlob({ type: 'image/jpeg', quality })
  return new Promise((resolve) => s.canvas.toBlob(resolve, 'image/jpeg', quality))
}

function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'photo'
  return `${base}.jpg`
}

export async function compressImage(file: File, options: CompressOptions = {}): Promise<File> {
  const maxEdge = options.maxEdge ?? COMPRESS_MAX_EDGE_PX
  const maxBytes = options.maxBytes ?? COMPRESS_MAX_BYTES
  const keepUnder = options.keepUnder ?? maxBytes
  if (file.type === 'image/gif' || file.size <= keepUnder) return file
  if (typeof createImageBitmap === 'undefined') return file

  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
  } catch {
    return file
  }
  try {
    let edge = Math.min(maxEdge, Math.max(bitmap.width, bitmap.height))
    let best: Blob | undefined
    for (;;) {
      const scale = edge / Math.max(bitmap.width, bitmap.height)
      const width = Math.max(1, Math.round(bitmap.width * scale))
      const height = Math.max(1, Math.round(bitmap.height * scale))
      const s = surface(width, height)
      if (!s) return file
      // A transparent PNG becomes a JPEG on white, not on black.
      s.ctx.fillStyle = '#ffffff'
      s.ctx.fillRect(0, 0, width, height)
      s.ctx.imageSmoothingQuality = 'high'
      s.ctx.drawImage(bitmap, 0, 0, width, height)
      for (const quality of QUALITIES) {
        const blob = await encode(s, quality)
        if (!blob) return file
        if (!best || blob.size < best.size) best = blob
        if (blob.size <= maxBytes) {
          return new File([blob], jpegName(file.name), {
            type: 'image/jpeg',
            lastModified: file.lastModified,
          })
        }
      }
      if (edge <= MIN_EDGE_PX) break
      edge = Math.max(MIN_EDGE_PX, Math.round(edge * SCALE_STEP))
    }
    // Nothing reached the target: the smallest result still beats the original.
    return best && best.size < file.size
      ? new File([best], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified })
      : file
  } finally {
    bitmap.close()
  }
}
