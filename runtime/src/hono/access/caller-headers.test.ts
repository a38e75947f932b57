import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import { jsonLdHeaders } from '../request/request-state.js'
import type { AccessRules } from './access-rules.js'
import { callerHeaders } from './caller-headers.js'
import { requestCaller } from './request-caller.js'

/** The headers a JSON-LD answer and a problem get after reading the caller under `rules`. */
async function headersOf(rules: AccessRules, settings?: AuthenticationSettings) {
  const app = new Hono().get('/books', async (c) => {
    const access = { access: rules, authentication: settings }
    await requestCaller(c, access, { model: 'Book', operation: 'collection' })
    return c.json({ page: jsonLdHeaders(c), problem: callerHeaders(c) })
  })
  const response = await app.request('/books', { headers: { Accept: 'application/ld+json' } })
  return (await response.json()) as { page: Record<string, string>; problem: string[][] }
}

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
})
