// The answers another runtime must give as Node.js does: recorded from the Node.js server of
// docs/getting-started.md, compared with another runtime's server on the same database. Status,
// Content-Type and body must be the same, byte for byte once each server's own origin is read as
// `<origin>` (the servers listen on different ports).

import { ANSWER_LIMIT_MS, expect } from './expect.mjs'

/** Under the mount path: the entrypoint, a page, an item, the documents, `/docs`, problems. */
const COMPARED_PATHS = [
  '',
  '/books?page=2',
  '/books?itemsPerPage=20&page=2',
  '/books/3',
  '/docs.jsonld',
  '/contexts/Book',
  '/openapi.json',
  '/docs',
  '/docs/swagger-ui.css',
  '/books?page=0',
  '/books/999',
  '/nothing-here',
]

/** The answers of the server at `base` (`http://localhost:PORT/api`) to `COMPARED_PATHS`. */
export async function answersOf(base) {
  const origin = new URL(base).origin
  const answers = new Map()
  for (const path of COMPARED_PATHS) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(ANSWER_LIMIT_MS) })
    const body = (await response.text()).replaceAll(origin, '<origin>')
    answers.set(path, { status: response.status, type: response.headers.get('content-type'), body })
  }
  return answers
}

/** Checks that the server at `base`, on `runtime`, answers as Node.js answered (`nodeAnswers`). */
export async function checkSameAnswers(runtime, base, nodeAnswers) {
  const answers = await answersOf(base)
  for (const [path, node] of nodeAnswers) {
    const answer = answers.get(path)
    const described = `${node.status} ${node.type}, ${node.body.length} characters`
    expect(
      answer.status === node.status && answer.type === node.type && answer.body === node.body,
      `${runtime}: GET /api${path} answers as on Node.js (${described})`,
      answer.body === node.body
        ? { status: answer.status, type: answer.type }
        : { status: answer.status, type: answer.type, body: answer.body.slice(0, 400) }
    )
  }
}
