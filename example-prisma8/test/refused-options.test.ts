/**
 * What the Prisma 8 back end cannot do is refused when the app is made, naming the option
 * (docs/prisma-8.md): custom data providers, read replicas, the `prisma` engine and Prisma 7's
 * driver adapter were taken and left unread, so that a JavaScript app's provider was never called
 * and its table's rows were served where it would have narrowed them. And a scope's `in` list
 * holding `null`, which Prisma refuses, is a faulty scope answered 500 as on Prisma 7, while a
 * condition the compiled engine does not write (`notIn`) is answered 501.
 */
import postgres from '@prisma/orm-postgres/runtime'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp } from '../generated/hydra/index.js'
import type { Contract } from '../prisma/contract.d.ts'
import contractJson from '../prisma/contract.json' with { type: 'json' }
import { BACK_END_URL } from './support/database-urls.js'

const db = postgres<Contract>({ contractJson, url: BACK_END_URL })

afterAll(async () => {
  await db.close()
})

/** The app's options as a JavaScript app (or one that casts) may hand them. */
type Untyped = Parameters<typeof createHydraApp>[0] & Record<string, unknown>

describe('createHydraApp on a Prisma 8 client', () => {
  const refused: [string, Record<string, unknown>][] = [
    ['providers', { providers: { book: { collection: () => [] } } }],
    ['replicas', { replicas: [db] }],
    ['engine: "prisma"', { engine: 'prisma' }],
    ['adapter', { adapter: {} }],
  ]
  it.each(refused)('refuses %s, naming it', (option, options) => {
    const made = () => createHydraApp({ prisma: db, ...options } as Untyped)
    expect(made).toThrow(`createHydraApp on a Prisma 8 client cannot take ${option}:`)
  })

  it('takes what it honours: the compiled engine, no replica, no provider', () => {
    const options = { engine: 'compiled', replicas: [], providers: {} }
    expect(createHydraApp({ prisma: db, ...options } as unknown as Untyped)).toBeDefined()
  })

  it('answers a scope with null in an in list as a faulty scope, notIn as not served', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const answer = async (scope: Record<string, unknown>) => {
        const app = createHydraApp({ prisma: db, access: { Book: { scope: () => scope } } })
        return (await app.request('/books')).status
      }
      expect(await answer({ id: { in: [1, null] } })).toBe(500)
      expect(logged.mock.calls.map(String).join('\n')).toContain(
        'answered a value its column does not take at id.in[1]'
      )
      expect(await answer({ id: { notIn: [1] } })).toBe(501)
    } finally {
      logged.mockRestore()
    }
  })
})
