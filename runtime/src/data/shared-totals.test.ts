import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PREFIX, sharedCountKey } from './shared-totals.js'

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')

const store = { get: async () => undefined, set: async () => undefined }

describe('keys of shared counts', () => {
  it('name the prefix, model, operation and the digest of the where', () => {
    const key = sharedCountKey(store, 'book', '/books', '{"tenantId":7,"price":{"lt":10}}')
    expect(key).toMatch(/^prisma-hydra:totals:book:\/books:sha256:[A-Za-z0-9_-]{43}$/)
    expect(key).toBe(
      `${DEFAULT_PREFIX}book:/books:sha256:${sha256('{"tenantId":7,"price":{"lt":10}}')}`
    )
    expect(sharedCountKey({ ...store, prefix: 'app1:' }, 'book', '/books', '')).toBe(
      'app1:book:/books:'
    )
  })

  it('stay short whatever a client sends', () => {
    const where = JSON.stringify({
      AND: Array.from({ length: 50 }, (_, i) => ({ id: { not: i } })),
    })
    const key = sharedCountKey(store, 'book', '/books', where)
    expect(key).toMatch(/^prisma-hydra:totals:book:\/books:sha256:[A-Za-z0-9_-]{43}$/)
    expect(sharedCountKey(store, 'book', '/books', `${where} `)).not.toBe(key)
  })
})
