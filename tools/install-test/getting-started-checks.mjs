// What the project of docs/getting-started.md must answer: the types a user sees, and over HTTP
// the entrypoint, a page and its links under the mount path, a client page size, an item, a 400
// and a 404 problem, and the API documentation.

import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { run, userEnvironment } from './commands.mjs'
import { expect, get } from './expect.mjs'

/**
 * Written after the doc's build: a hidden field is not part of the member type, and the member
 * type is not `any` (an unused @ts-expect-error is itself an error); `env` is the commands'.
 */
export async function checkMemberType(project, env = userEnvironment()) {
  writeFileSync(
    path.join(project, 'src/types-check.ts'),
    [
      "import type { BookMember } from './generated/hydra/index.js'",
      '',
      'export function title(book: BookMember): string {',
      '  // @ts-expect-error internalNote is @hidden',
      '  void book.internalNote',
      '  return book.title',
      '}',
      '',
    ].join('\n')
  )
  await run('npx tsc --noEmit', project, env)
}

/** Checks the served API at `base` (`http://localhost:PORT/api`). */
export async function checkServer(base) {
  const origin = new URL(base).origin

  const entrypoint = await get(base)
  expect(entrypoint.status === 200, 'GET /api: 200', entrypoint)
  expect(
    entrypoint.type?.startsWith('application/ld+json'),
    'GET /api: application/ld+json',
    entrypoint.type
  )
  expect(
    entrypoint.body.book === '/api/books',
    'GET /api: the entrypoint links the books',
    entrypoint.body
  )
  expect(
    entrypoint.link?.includes(`<${origin}/api/docs.jsonld>`),
    'GET /api: Link to the API documentation under the mount path',
    entrypoint.link
  )

  await checkPages(base)

  const item = await get(`${base}/books/3`)
  expect(item.status === 200, 'GET /api/books/3: 200', item)
  expect(
    item.body['@id'] === '/api/books/3' &&
      item.body.title === 'Book 3' &&
      item.body.publishedAt === '2020-01-03T00:00:00.000Z' &&
      !('internalNote' in item.body),
    'GET /api/books/3: the item, its date in ISO 8601, without the hidden field',
    item.body
  )

  await checkProblems(base)

  const documentation = await get(`${base}/docs.jsonld`)
  expect(documentation.status === 200, 'GET /api/docs.jsonld: 200', documentation.status)
  expect(
    JSON.stringify(documentation.body['@type']).includes('ApiDocumentation'),
    'GET /api/docs.jsonld: a hydra:ApiDocumentation',
    documentation.body['@type']
  )
}

async function checkPages(base) {
  const page = await get(`${base}/books?page=2`)
  const view = page.body['hydra:view']
  expect(page.status === 200, 'GET /api/books?page=2: 200', page)
  expect(
    page.body['hydra:totalItems'] === 25,
    'page 2: 25 items in all',
    page.body['hydra:totalItems']
  )
  expect(
    page.body['hydra:member'].map((m) => m['@id']).join() ===
      Array.from({ length: 10 }, (_, i) => `/api/books/${i + 11}`).join(),
    'page 2: books 11 to 20',
    page.body['hydra:member'].map((m) => m['@id'])
  )
  expect(
    view['hydra:first'] === '/api/books?page=1' &&
      view['hydra:last'] === '/api/books?page=3' &&
      view['hydra:previous'] === '/api/books?page=1' &&
      view['hydra:next'] === '/api/books?page=3',
    'page 2: first, last, previous and next under the mount path',
    view
  )
  expect(
    page.body['hydra:member'].every((m) => !('internalNote' in m)),
    'page 2: the @hidden field is not served'
  )

  const clientSize = await get(`${base}/books?itemsPerPage=20`)
  expect(
    clientSize.body['hydra:member'].length === 20,
    'itemsPerPage=20: 20 members',
    clientSize.body['hydra:member'].length
  )
}

async function checkProblems(base) {
  const error = await get(`${base}/books?page=0`)
  expect(error.status === 400, 'GET /api/books?page=0: 400', error)
  expect(
    error.type?.startsWith('application/problem+json'),
    'page=0: application/problem+json',
    error.type
  )
  expect(
    error.body.detail === 'Page should not be less than 1',
    "page=0: the reference's message",
    error.body
  )

  const missing = await get(`${base}/books/999`)
  expect(missing.status === 404, 'GET /api/books/999: 404', missing)
  expect(
    missing.type?.startsWith('application/problem+json'),
    'books/999: application/problem+json',
    missing.type
  )
}
