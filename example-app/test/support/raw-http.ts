/**
 * Bytes sent to a server as they are, on a socket of their own: what HTTP clients refuse to send
 * (raw UTF-8 in a URL, malformed request lines, oversized heads), as curl or a broken client may.
 */
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends `request` to `origin` and reads the answer until the server closes the connection. */
export function sendRaw(origin: string, request: string | Buffer): Promise<RawAnswer> {
  const url = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      // A whole answer with a Content-Length: done, whether or not the server closes.
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1]
      if (end !== -1 && length !== undefined && Buffer.byteLength(text) >= end + 4 + Number(length))
        socket.end()
    })
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const [line = '', ...fields] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const field of fields) {
        const colon = field.indexOf(':')
        headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim()
      }
      resolve({ status: Number(line.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') })
    })
  })
}
