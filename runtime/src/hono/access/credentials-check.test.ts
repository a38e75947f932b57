import { type Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AccessRules } from './access-rules.js'
import { checkedAccess } from './credentials-check.js'

type Scope = (c: Context) => unknown

/** What the scope of `Book` answers under `reads` for a request, or the message it throws. */
async function scopeAnswer(
  scope: Scope,
  init: RequestInit & { url?: string } = {},
  reads: 'credentials' | undefined = 'credentials',
  env?: object
): Promise<unknown> {
  const access: AccessRules = { Book: { reads, scope: scope as never } }
  const checked = checkedAccess(access, { vary: ['Authorization', 'Cookie'] })
  let seen: unknown
  const app = new Hono<{ Variables: { claims: string } }>()
    .use(async (c, next) => {
      c.set('claims', 'from the token')
      await next()
    })
    .get('/books', async (c) => {
      try {
        seen = await checked?.Book?.scope?.(c)
      } catch (error) {
        seen = (error as Error).message
      }
      return c.text('')
    })
  await app.request(init.url ?? '/books?region=eu', init, env)
  return seen
}

describe("reads: 'credentials', checked", () => {
  afterEach(() => vi.unstubAllEnvs())

  it('lets a rule read the credentials, what middleware set, and the route', async () => {
    const headers = { Authorization: 'Bearer t', Cookie: 'session=s; consent=yes' }
    const scope: Scope = (c) => [
      c.req.header('authorization'),
      c.req.raw.headers.get('Cookie'),
      getCookie(c, 'session'),
      c.get('claims'),
      c.var.claims,
      c.req.path,
      c.req.method,
    ]
    expect(await scopeAnswer(scope, { headers })).toEqual([
      'Bearer t',
      'session=s; consent=yes',
      's',
      'from the token',
      'from the token',
      '/books',
      'GET',
    ])
  })

  it('fails loudly, naming the rule and what it read, on any other read of the request', async () => {
    const reads: Array<[Scope, string]> = [
      [(c) => c.req.header('X-Region'), 'the request header X-Region'],
      [(c) => c.req.header(), 'every request header'],
      [(c) => c.req.raw.headers.get('Accept-Language'), 'the request header Accept-Language'],
      [(c) => [...c.req.raw.headers.entries()], 'every request header'],
      [(c) => [...c.req.raw.headers], 'every request header (iterating Headers)'],
      [(c) => Object.fromEntries(c.req.raw.headers), 'every request header (iterating'],
      [(c) => new Headers(c.req.raw.headers).get('X-Region'), 'every request header (iterating'],
      [
        (c) => {
          for (const [name] of c.req.raw.headers) if (name === 'x-region') return name
          return undefined
        },
        'every request header (iterating',
      ],
      [(c) => c.req.query('region'), 'c.req.query'],
      [(c) => c.req.queries(), 'c.req.queries'],
      [(c) => c.req.url, 'c.req.url'],
      [(c) => c.req.raw.url, "the request's url"],
      [(c) => (c.req.raw as { cf?: unknown }).cf, "the request's cf"],
      [(c) => c.req.json(), 'c.req.json'],
    ]
    for (const [scope, what] of reads) {
      const message = await scopeAnswer(scope)
      expect(message, what).toMatch(/^The scope of Book read /)
      expect(message, what).toContain(what)
      expect(message, what).toContain("reads: 'credentials'")
    }
  })

  it("refuses the client's address, as Node's, Bun's and Deno's bindings hold it", async () => {
    const address = (c: Context) => (c.env as { incoming: { socket: unknown } }).incoming.socket
    const node = { incoming: { socket: { remoteAddress: '10.0.0.1' } }, outgoing: {} }
    expect(await scopeAnswer(address, {}, 'credentials', node)).toMatch(
      /read the connection \(c\.env\.incoming/
    )
    const deno = (c: Context) => (c.env as { remoteAddr: unknown }).remoteAddr
    expect(await scopeAnswer(deno, {}, 'credentials', { remoteAddr: {} })).toMatch(/remoteAddr/)
    const binding = (c: Context) => (c.env as { SECRET: string }).SECRET
    expect(await scopeAnswer(binding, {}, 'credentials', { SECRET: 'kept' })).toBe('kept')
  })

  it('checks guards, hidden rules and operations’ rules; leaves rules that declare nothing', async () => {
    const region = (c: Context) => c.req.header('X-Region')
    const access: AccessRules = {
      Book: {
        reads: 'credentials',
        guard: (c) => (region(c) ? 'allow' : 'forbidden'),
        hidden: (c) => (region(c) ? [] : ['title']),
        operations: { item: { scope: (c) => ({ region: region(c) }) }, recent: { scope: null } },
      },
      Author: { scope: (c) => ({ region: region(c) }) },
    }
    const checked = checkedAccess(access, undefined)
    const seen: unknown[] = []
    const app = new Hono().get('/', async (c) => {
      const rules: Array<() => unknown> = [
        () => checked?.Book?.guard?.(c),
        () => checked?.Book?.hidden?.(c),
        () => checked?.Book?.operations?.item?.scope?.(c),
        () => checked?.Author?.scope?.(c),
      ]
      for (const rule of rules)
        seen.push(
          await Promise.resolve()
            .then(rule)
            .catch((error: Error) => error.message)
        )
      return c.text('')
    })
    await app.request('/', { headers: { 'X-Region': 'eu' } })
    expect(seen.slice(0, 3).map((message) => String(message).split(' read ')[0])).toEqual([
      'The guard of Book',
      'The hidden rule of Book',
      'The scope of Book (item)',
    ])
    expect(seen[3]).toEqual({ region: 'eu' })
    expect(checked?.Book?.operations?.recent?.scope).toBeNull()
  })

  it('checks nothing in production (NODE_ENV=production)', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    const scope: Scope = (c) => c.req.header('X-Region')
    expect(await scopeAnswer(scope, { headers: { 'X-Region': 'eu' } })).toBe('eu')
  })
})
