import { type Context, Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import { jsonLdHeaders } from '../request/request-state.js'
import { cacheControlFor } from '../response/http-cache.js'
import type { AccessRules } from './access-rules.js'
import { callerHeaders } from './caller-headers.js'
import { callerAnswer, requestCaller } from './request-caller.js'

/** The headers a JSON-LD answer and a problem get after reading the caller under `rules`. */
async function headersOf(
  rules: AccessRules,
  settings?: AuthenticationSettings,
  sent: Record<string, string> = {},
  related: string[] = []
) {
  const app = new Hono().get('/books', async (c) => {
    const access = { access: rules, authentication: settings }
    await requestCaller(c, access, { model: 'Book', operation: 'collection', related })
    return c.json({
      page: jsonLdHeaders(c),
      problem: callerHeaders(c),
      cache: cacheControlFor('public, s-maxage=60', callerOf(c)),
    })
  })
  const headers = { Accept: 'application/ld+json', ...sent }
  const response = await app.request('/books', { headers })
  return (await response.json()) as {
    page: Record<string, string>
    problem: string[][]
    cache: string
  }
}

/** How the answer depends on the caller, as http-cache.ts reads it. */
const callerOf = (c: Context) => callerAnswer(c)

describe('callerHeaders', () => {
  it('leaves a request no rule bears on public', async () => {
    const { page, problem } = await headersOf({ Author: { scope: () => ({ id: 1 }) } })
    expect([page.Vary, page['Cache-Control'], problem]).toEqual(['Accept', undefined, []])
  })

  it('marks a request a rule bears on private, varying by the caller’s headers', async () => {
    const { page, problem } = await headersOf({ Book: { scope: () => undefined } })
    expect([page.Vary, page['Cache-Control']]).toEqual(['Accept, Authorization, Cookie', 'private'])
    expect(problem).toEqual([
      ['Cache-Control', 'private'],
      ['Vary', 'Authorization, Cookie'],
    ])
    const custom = await headersOf({ Book: {} }, { vary: ['X-Api-Key'] })
    expect(custom.page.Vary).toBe('Accept, X-Api-Key')
  })

  it('keeps an answer private when the app names no header it varies by', async () => {
    const { page, problem } = await headersOf({ Book: {} }, { vary: [] })
    expect([page.Vary, page['Cache-Control'], problem]).toEqual([
      'Accept',
      'private',
      [['Cache-Control', 'private']],
    ])
  })

  it('shares the anonymous answer of rules that read only credentials', async () => {
    const rules: AccessRules = { Book: { reads: 'credentials', scope: () => ({ draft: false }) } }
    const anonymous = await headersOf(rules)
    expect([anonymous.page.Vary, anonymous.page['Cache-Control']]).toEqual([
      'Accept, Authorization, Cookie',
      undefined,
    ])
    expect(anonymous.problem).toEqual([
      ['Cache-Control', 'no-store'],
      ['Vary', 'Authorization, Cookie'],
    ])
    expect(anonymous.cache).toBe('public, s-maxage=60')
    const bearer = await headersOf(rules, {}, { Authorization: 'Bearer x' })
    expect([bearer.page['Cache-Control'], bearer.cache]).toEqual(['private', 'private'])
  })

  it('keeps private the anonymous answer of a rule that declares nothing', async () => {
    const declared = { reads: 'credentials' as const }
    const rules: AccessRules = { Book: declared, Author: { scope: () => ({ id: 1 }) } }
    expect((await headersOf(rules)).cache).toBe('public, s-maxage=60')
    expect((await headersOf(rules, {}, {}, ['Author'])).cache).toBe('private')
    expect((await headersOf({ Book: declared }, {}, {}, ['Author'])).cache).toBe(
      'public, s-maxage=60'
    )
  })

  it('reads a cookie as credentials unless the app names its session cookies', async () => {
    const rules: AccessRules = { Book: { reads: 'credentials' } }
    const analytics = { Cookie: 'theme=dark' }
    expect((await headersOf(rules, {}, analytics)).cache).toBe('private')
    const named = { sessionCookies: ['session'] }
    expect((await headersOf(rules, named, analytics)).cache).toBe('public, s-maxage=60')
    const session = { Cookie: 'theme=dark; session=abc' }
    expect((await headersOf(rules, named, session)).cache).toBe('private')
    expect((await headersOf(rules, { vary: [] })).cache).toBe('private')
  })
})
