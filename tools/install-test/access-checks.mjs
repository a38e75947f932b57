// What docs/tutorial-access.md promises, asked over HTTP of its running project: a tenant's rows
// for its token and no row (`{ OR: [] }`) for an anonymous caller, a rejected token's 401 problem,
// the composite-key item through the project's own openapi-fetch, the hideable field in the
// answers and the OpenAPI document, and the app's own write route under the same rules.

import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, get } from './expect.mjs'

/** The seed's tasks by organisation (docs/tutorial-access.md, src/seed.ts). */
const TASKS = { 1: [1, 3, 5], 2: [2, 4] }
const bearer = (token) => ({ Authorization: `Bearer ${token}` })
const ids = (page) => page.body['hydra:member']?.map((member) => member['@id'])

/**
 * Checks the API at `base` (`http://localhost:PORT/api`) of `project`; `tokens` are signed by the
 * project's `dist/token.js`: `ann` (admin of 1), `bob` (member of 1), `globex` (ann, member of 2)
 * and `forged` (signed with another secret).
 */
export async function checkAccess(base, project, tokens) {
  await checkTenancy(base, tokens)
  await checkRejectedToken(base, tokens.forged)
  await checkCompositeKey(base, project, tokens.bob)
  await checkHideableField(base, tokens)
  await checkWriteRoute(base, tokens.bob)
}

async function checkTenancy(base, tokens) {
  const items = await Promise.all([1, 2, 3, 4, 5].map((id) => get(`${base}/tasks/${id}`)))
  expect(
    items.every((item) => item.status === 404 && item.type?.startsWith('application/problem+json')),
    'anonymous: every task item is a 404 problem ({ OR: [] } holds for items)',
    items.map((item) => item.status)
  )
  for (const query of ['?title=task', '?done=false', '']) {
    const page = await get(`${base}/tasks${query}`)
    expect(
      page.status === 200 && page.body['hydra:totalItems'] === 0 && ids(page).length === 0,
      `anonymous: GET /api/tasks${query} holds no row ("hydra:totalItems": 0)`,
      page.body
    )
  }
  for (const [name, org] of [
    ['ann', 1],
    ['globex', 2],
  ]) {
    const own = TASKS[org].map((id) => `/api/tasks/${id}`)
    const page = await get(`${base}/tasks?title=task`, bearer(tokens[name]))
    expect(
      page.body['hydra:totalItems'] === own.length &&
        ids(page).join() === own.join() &&
        page.body['hydra:member'].every((task) => task.orgId === org),
      `organisation ${org}'s token: its ${own.length} tasks, no other`,
      page.body
    )
    const other = TASKS[org === 1 ? 2 : 1][0]
    const [mine, theirs] = await Promise.all([
      get(`${base}/tasks/${TASKS[org][0]}`, bearer(tokens[name])),
      get(`${base}/tasks/${other}`, bearer(tokens[name])),
    ])
    expect(
      mine.status === 200 && theirs.status === 404,
      `organisation ${org}'s token: its task is 200, the other organisation's 404`,
      [mine.status, theirs.status]
    )
  }
}

async function checkRejectedToken(base, forged) {
  const origin = new URL(base).origin
  for (const authorization of [`Bearer ${forged}`, 'Bearer not-a-token']) {
    const refused = await get(`${base}/tasks`, { Authorization: authorization })
    expect(
      refused.status === 401 &&
        refused.type?.startsWith('application/problem+json') &&
        /^Bearer\b/.test(refused.challenge ?? '') &&
        refused.body.status === 401,
      `${authorization.slice(0, 20)}…: a 401 problem+json with WWW-Authenticate`,
      refused
    )
    const context = await fetch(new URL(refused.body['@context'], origin))
    await context.arrayBuffer()
    expect(
      refused.body['@context'] === '/api/contexts/Error' && context.status === 200,
      `the 401's @context (${refused.body['@context']}) answers 200 under the mount`,
      [refused.body['@context'], context.status]
    )
  }
}

/** The project's own openapi-fetch, as its clients import it. */
async function projectOpenApiFetch(project) {
  const require = createRequire(path.join(project, 'package.json'))
  const entry = path.join(
    path.dirname(require.resolve('openapi-fetch/package.json')),
    'dist/index.mjs'
  )
  return (await import(pathToFileURL(entry).href)).default
}

async function checkCompositeKey(base, project, token) {
  const createClient = await projectOpenApiFetch(project)
  const sent = []
  const client = createClient({
    baseUrl: base,
    headers: bearer(token),
    fetch: (request) => {
      sent.push(request.url)
      return fetch(request)
    },
  })
  const { data, response } = await client.GET('/memberships/{id}', {
    params: { path: { id: 'orgId=1;userId=ann' } },
  })
  expect(
    sent[0]?.endsWith('/api/memberships/orgId%3D1%3BuserId%3Dann'),
    'openapi-fetch sends the composite key percent-encoded',
    sent
  )
  expect(
    response.status === 200 && data?.['@id'] === '/api/memberships/orgId=1;userId=ann',
    'the percent-encoded composite key answers 200 with the item',
    { status: response.status, data }
  )
}

async function checkHideableField(base, tokens) {
  const [member, admin] = await Promise.all([
    get(`${base}/memberships`, bearer(tokens.bob)),
    get(`${base}/memberships`, bearer(tokens.ann)),
  ])
  expect(
    member.body['hydra:member']?.length === 2 &&
      member.body['hydra:member'].every((m) => !('email' in m)) &&
      admin.body['hydra:member']?.every((m) => typeof m.email === 'string'),
    "email: absent from a member's answers, present in an admin's",
    [member.body, admin.body]
  )
  const document = await get(`${base}/openapi.json`)
  const schema = document.body.components?.schemas?.Membership
  expect(
    schema?.additionalProperties === false &&
      'email' in schema.properties &&
      !schema.required.includes('email') &&
      ['@id', 'orgId', 'userId'].every((field) => schema.required.includes(field)),
    'OpenAPI: Membership lists email, not as required (its key fields are)',
    schema
  )
}

async function checkWriteRoute(base, token) {
  const post = async (id, headers = {}) => {
    const response = await fetch(`${base}/tasks/${id}/done`, { method: 'POST', headers })
    await response.arrayBuffer()
    return response.status
  }
  const answers = [
    await post(3, bearer(token)),
    await post(2, bearer(token)),
    await post(1),
    await post('abc', bearer(token)),
  ]
  const task = await get(`${base}/tasks/3`, bearer(token))
  expect(
    answers.join() === '204,404,404,404' && task.body.done === true,
    "POST /api/tasks/:id/done: 204 for the caller's task, 404 for another's, an anonymous caller's and abc",
    answers
  )
}
