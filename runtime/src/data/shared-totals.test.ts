import { describe, expect, it } from 'vitest'
import { DEFAULT_PREFIX, sharedCountKey } from './shared-totals.js'

const store = { get: async () => undefined, set: async () => undefined }

describe('keys of shared counts', () => {
  it('name the prefix, model, operation and where', () => {
    expect(sharedCountKey(store, 'book', '/books', '{"price":{"lt":10}}')).toBe(
      `${DEFAULT_PREFIX}book:/books:{"price":{"lt":10}}`
    )
    expect(sharedCountKey({ ...store, prefix: 'app1:' }, 'book', '/books', '')).toBe(
      'app1:book:/books:'
    )
  })

  it('hash a long where, so that a key stays short whatever a client sends', () => {
    const where = JSON.stringify({
      AND: Array.from({ length: 50 }, (_, i) => ({ id: { not: i } })),
    })
    const key = sharedCountKey(store, 'book', '/books', where)
    expect(key).toMatch(/^prisma-hydra:totals:book:\/books:sha256:[A-Za-z0-9_-]{43}$/)
    expect(sharedCountKey(store, 'book', '/books', `${where} `)).not.toBe(key)
  })
})
