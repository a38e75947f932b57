// Requests as curl or a broken client sends them, which fetch refuses to: raw UTF-8 in the
// request line, no Host, a foreign host in an absolute request target. The server
// docs/getting-started.md teaches answers each as a problem (docs/errors.md, "The request
// itself"), never with Node's bodiless 400 nor with the foreign host in a link.

import { connect } from 'node:net'
import { ANSWER_LIMIT_MS } from './expect.mjs'

/**
 * Sends `request` as bytes on a socket of its own and reads the answer until the server closes
 * the connection (every request here asks it to, or is refused with the connection closed).
 */
function sendRaw(origin, request) {
  const url = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request))
    socket.setTimeout(ANSWER_LIMIT_MS, () => socket.destroy(new Error(`no answer to ${request}`)))
    const chunks = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      const head = text.slice(0, end === -1 ? undefined : end)
      resolve({
        status: Number(head.split(' ')[1] ?? 0),
        head,
        type: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1],
        body: end === -1 ? '' : text.slice(end + 4),
      })
    })
  })
}

/** The problem's detail of `answer`, or undefined when it is no problem. */
function detailOf(answer) {
  if (!answer.type?.startsWith('application/problem+json')) return undefined
  try {
    return JSON.parse(answer.body).detail
  } catch {
    return undefined
  }
}

/** The `@context`, `@id` and `type` a problem's body writes. */
function irisOf(answer) {
  try {
    const body = JSON.parse(answer.body)
    return [body['@context'], body['@id'], body.type].map(String)
  } catch {
    return []
  }
}

/** Checks the raw requests against the server at `base` (`http://localhost:PORT/api`). */
export async function checkRawRequests(base, expect) {
  const { host } = new URL(base)
  const path = new URL(base).pathname

  const raw = await sendRaw(
    base,
    Buffer.from(`GET ${path}/books?title=zo\u00eb HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 'utf8')
  )
  expect(
    raw.status === 400 && /percent-encode/.test(detailOf(raw) ?? ''),
    'raw UTF-8 in the request line (?title=zoë as curl sends it): a 400 problem',
    raw
  )
  // Written by the server before any route runs, under the mount path it was given as `base`.
  const iris = raw.status === 400 ? irisOf(raw) : []
  const resolved = await Promise.all(
    iris.map(async (iri) => (await fetch(`${new URL(base).origin}${iri}`)).status)
  )
  expect(
    iris.length === 3 &&
      iris.every((iri) => iri.startsWith(`${path}/`)) &&
      resolved.every((status) => status === 200),
    `its @context, @id and type are under ${path} and resolve`,
    { iris, resolved }
  )

  const hostless = await sendRaw(base, `GET ${path}/books HTTP/1.1\r\n\r\n`)
  expect(
    hostless.status === 400 &&
      detailOf(hostless) === 'The request names no host: send a Host header.',
    'a request without Host: a 400 problem',
    hostless
  )

  const foreign = await sendRaw(
    base,
    `GET http://evil.example${path}/contexts/Book HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
  )
  expect(
    foreign.status === 400 &&
      detailOf(foreign) !== undefined &&
      !`${foreign.head}${foreign.body}`.includes('evil'),
    'a foreign host in an absolute request target: a 400 problem that repeats nothing of it',
    foreign
  )
}
