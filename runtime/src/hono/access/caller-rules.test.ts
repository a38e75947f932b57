import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { ResourceAccess } from './access-rules.js'
import { callerRules } from './caller-rules.js'

const callerOf = (c: { req: { header(name: string): string | undefined } }) =>
  c.req.header('X-Caller')

type Where = Record<string, unknown>

/** The rules as an app's generated `HydraAccess` types them: by model, its where, operations, fields. */
const access: {
  Loan?: ResourceAccess<Where, 'collection', 'borrower' | 'book'>
  Book?: ResourceAccess<Where, 'collection', 'title' | 'isbn'>
} = {
  Loan: {
    guard: (c) => (callerOf(c) ? 'allow' : 'unauthenticated'),
    scope: (c) => (callerOf(c) === 'nobody' ? { NOT: {} } : { borrower: callerOf(c) }),
    hidden: (c) => (callerOf(c) === 'librarian' ? [] : ['borrower']),
    operations: { item: { scope: null } },
  },
  Book: {
    hidden: (c) => (callerOf(c) === 'ann' ? ['isbn'] : []),
    shownWhere: (c) =>
      callerOf(c) === 'librarian'
        ? undefined
        : { title: { OR: [] }, isbn: { loans: { some: { borrower: callerOf(c) } } } },
  },
}

/** What `ask` answers for a request from `caller`, or what it throws. */
async function answer<T>(caller: string | undefined, ask: (c: never) => Promise<T>) {
  let seen: { value?: T; error?: unknown } = {}
  const app = new Hono().get('/', async (c) => {
    try {
      seen = { value: await ask(c as never) }
    } catch (error) {
      seen = { error }
    }
    return c.text('')
  })
  await app.request('/', { headers: caller ? { 'X-Caller': caller } : {} })
  return seen
}

describe('callerRules', () => {
  const rules = callerRules(
    access,
    { challenge: 'Bearer realm="loans"' },
    { Loan: 'id', Book: 'id' }
  )

  it("answers each rule as the generated routes read it, an operation's own first", async () => {
    expect((await answer(undefined, (c) => rules.guard(c, 'Loan'))).value).toBe('unauthenticated')
    expect((await answer('ann', (c) => rules.guard(c, 'Loan'))).value).toBe('allow')
    expect((await answer('ann', (c) => rules.scope(c, 'Loan', 'collection'))).value).toEqual({
      borrower: 'ann',
    })
    expect((await answer('ann', (c) => rules.scope(c, 'Loan'))).value).toBeUndefined()
    expect((await answer('ann', (c) => rules.hidden(c, 'Loan'))).value).toEqual(['borrower'])
    expect((await answer('ann', (c) => rules.guard(c, 'Book'))).value).toBe('allow')
  })

  it('joins the route’s condition to the scope, "no row" written on the key', async () => {
    const where = (caller: string) =>
      answer(caller, (c) => rules.where(c, 'Loan', { id: 3 }, 'collection'))
    expect((await where('ann')).value).toEqual({ borrower: 'ann', id: 3 })
    expect((await where('nobody')).value).toEqual({ id: { in: [] } })
    expect((await answer('nobody', (c) => rules.scope(c, 'Loan', 'collection'))).value).toEqual({
      id: { in: [] },
    })
  })

  it('answers the fields shown on some rows, settled, those hidden on every row left out', async () => {
    const shown = (caller: string) => answer(caller, (c) => rules.shownWhere(c, 'Book'))
    expect((await shown('bob')).value).toEqual({
      title: { id: { in: [] } },
      isbn: { loans: { some: { borrower: 'bob' } } },
    })
    expect((await shown('ann')).value).toEqual({ title: { id: { in: [] } } })
    expect((await shown('librarian')).value).toEqual({})
  })

  it('throws the guard’s 401 with its challenge, and refuses an undefined condition', async () => {
    const refused = await answer(undefined, (c) => rules.where(c, 'Loan', { id: 3 }))
    expect(refused.error).toMatchObject({ status: 401 })
    const hole = await answer('ann', (c) => rules.where(c, 'Loan', { id: undefined }))
    expect(hole.error).toBeInstanceOf(TypeError)
  })
})
