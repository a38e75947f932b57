import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AccessRules } from '../hono/access/access-rules.js'
import { type CallerRequest, callerView } from './caller-view.js'
import { prismaWhere } from './prisma7/where.js'

/** The view `rules` give a request for `/`, with the caller named by its `X-Caller` header. */
async function viewOf(rules: AccessRules, request: CallerRequest, caller?: string) {
  let seen: { scope: unknown; related: Record<string, unknown> } | undefined
  let failure: unknown
  const app = new Hono().get('/', async (c) => {
    try {
      const view = await callerView(c, rules, request)
      const related = Object.fromEntries(
        (request.related ?? []).map((model) => [model, prismaWhere(view.scopeOf(model))])
      )
      // The scopes as the prisma engine writes them.
      seen = { scope: prismaWhere(view.scope), related }
    } catch (error) {
      failure = error
    }
    return c.text('')
  })
  await app.request('/', { headers: caller ? { 'X-Caller': caller } : {} })
  return { seen, failure }
}

const callerOf = (c: { req: { header(name: string): string | undefined } }) =>
  c.req.header('X-Caller')

describe('callerView', () => {
  it('sees no related row of a model whose item guard refuses the caller, without its scope', async () => {
    const rules: AccessRules = {
      Loan: {
        guard: (c) => (callerOf(c) ? 'allow' : 'unauthenticated'),
        // Relies on the guard: it would throw for an anonymous caller.
        scope: (c) => ({ borrower: (callerOf(c) as string).toUpperCase() }),
      },
    }
    const request = { model: 'Book', operation: 'collection', related: ['Loan'] }
    expect((await viewOf(rules, request)).seen?.related).toEqual({ Loan: { OR: [] } })
    expect((await viewOf(rules, request, 'ann')).seen?.related).toEqual({
      Loan: { borrower: 'ANN' },
    })
  })

  it('refuses a scope holding an undefined value, which Prisma would read as every row', async () => {
    const rules: AccessRules = {
      Book: { scope: (c) => ({ AND: [{ tenant: callerOf(c) }] }) },
    }
    const request = { model: 'Book', operation: 'collection' }
    expect((await viewOf(rules, request, 't1')).seen?.scope).toEqual({ tenant: 't1' })
    const { failure } = await viewOf(rules, request)
    expect(failure).toBeInstanceOf(TypeError)
    expect(String(failure)).toContain('AND[0].tenant')
  })
})
