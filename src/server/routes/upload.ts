/**
 * `POST /api/v2/upload` (multipart `image` + `access_type`) and `GET /uploads/<name>`, the stable public URL
 * the network fetches the image from. Names are content hashes, so the same image is stored once, in the
 * database every instance shares.
 */
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { UPLOAD_MAX_BYTES } from '../../core/constants/limits.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, invalid } from '../http/errors.ts'
import { ImageTooLargeError, NotAnImageError, processImage } from '../images/process-image.ts'
import { loadSubscription } from '../repo/subscriptions.ts'
import { UPLOAD_NAME, UploadsFullError, loadUpload, saveUpload } from '../repo/uploads.ts'

const TOO_MANY_BYTES = `The image is too large: at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB are accepted.`

export async function uploadRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const multipart = (await import('@fastify/multipart')).default
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 1000, parts: 6 },
  })

  app.post(
    '/upload',
    {
      preHandler: ctx.authenticate,
      config: { rateLimit: { max: ctx.rateLimits.upload, timeWindow: '1 minute' } },
    },
    async (request) => {
      if (!request.isMultipart())
        throw invalid('image', 'Send the image as multipart/form-data in the field "image".')
      let image: Buffer | undefined
      let accessType: string | undefined
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'image')
            throw invalid(part.fieldname, `The file field ${part.fieldname} is not allowed; use "image".`)
          image = await part.toBuffer().catch((err: unknown) => {
            if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw new HttpError(413, TOO_MANY_BYTES)
            throw err
          })
        } else if (part.fieldname === 'access_type') {
          accessType = String(part.value)
        } else {
          throw invalid(part.fieldname, `The field ${part.fieldname} is not allowed.`)
        }
      }
      if (!image || image.length === 0) throw invalid('image', 'An image file is required.')
      if (accessType !== undefined && accessType !== 'trial' && accessType !== 'paid') {
        throw invalid('access_type', 'access_type must be trial or paid.')
      }
      // The watermark follows the stored subscription, never what the client claims.
      const sub = await loadSubscription(ctx.store, currentUser(request).id)
      let processed
      try {
        processed = await processImage(image, sub.access_type !== 'paid')
      } catch (err) {
        if (err instanceof NotAnImageError) throw invalid('image', err.message)
        if (err instanceof ImageTooLargeError) throw new HttpError(413, err.message)
        throw err
      }
      const name = `${createHash('sha256').update(processed.data).digest('hex').slice(0, 40)}.${processed.ext}`
      try {
        await saveUpload(ctx.store, name, processed.data, ctx.config.UPLOADS_MAX_TOTAL_BYTES)
      } catch (err) {
        if (err instanceof UploadsFullError)
          throw new HttpError(507, 'The image storage is full; no more images can be uploaded for now.')
        throw err
      }
      return {
        url: `${ctx.config.publicUrl}/uploads/${name}`,
        width: processed.width,
        height: processed.height,
      }
    },
  )
}

/** Registered outside `/api/v2`: `GET /uploads/<name>`, public and immutable. */
export function uploadedFileRoute(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/uploads/:name', async (request, reply) => {
    const { name } = request.params as { name: string }
    const upload = UPLOAD_NAME.test(name) ? await loadUpload(ctx.store, name) : undefined
    if (!upload) throw new HttpError(404, 'No such upload.')
    return reply
      .type(upload.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(upload.bytes)
  })
}
