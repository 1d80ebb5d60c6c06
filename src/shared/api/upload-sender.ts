/**
 * The sender of an upload that reports its progress: XMLHttpRequest, the browser's only request that tells
 * how much of its body went up.
 */

/** A fetch through XMLHttpRequest that reports the upload of its body (abort and network failure as fetch's). */
export function xhrFetch(onProgress: (sent: number, total: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest()
      xhr.open(init.method ?? 'GET', String(input))
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value))
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total)
      }
      xhr.onload = () =>
        resolve(
          new Response(xhr.status === 204 ? null : xhr.responseText, {
            status: xhr.status,
            statusText: xhr.statusText,
          }),
        )
      xhr.onerror = () => reject(new TypeError('Network error'))
      xhr.onabort = () => reject(new DOMException('The request was aborted', 'AbortError'))
      const signal = init.signal
      if (signal) {
        if (signal.aborted) return reject(new DOMException('The request was aborted', 'AbortError'))
        signal.addEventListener('abort', () => xhr.abort(), { once: true })
      }
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null)
    })
}
