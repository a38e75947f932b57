import { describe, expect, it } from 'vitest'
import { httpPurge } from './http-purge.js'

/** A purge whose requests are recorded: each one's tags. */
function recorded(options: { maxTags?: number } = {}) {
  const sent: string[][] = []
  const purge = httpPurge({
    url: 'http://cache.test/',
    ...options,
    fetch: async (_url, init) => {
      const headers = (init?.headers ?? {}) as Record<string, string>
      sent.push(String(headers.xkey).split(' '))
      return new Response(null, { status: 200 })
    },
  })
  return { purge, sent }
}

const tags = (count: number) => Array.from({ length: count }, (_, index) => `Book:id=${index}`)

describe('httpPurge', () => {
  it('sends at most 256 tags a request by default, every tag once', async () => {
    const { purge, sent } = recorded()
    await purge(tags(600))
    expect(sent.map((batch) => batch.length)).toEqual([256, 256, 88])
    expect(sent.flat()).toEqual(tags(600))
  })

  it('sends at most maxTags tags a request', async () => {
    const { purge, sent } = recorded({ maxTags: 100 })
    await purge(tags(201))
    expect(sent.map((batch) => batch.length)).toEqual([100, 100, 1])
  })

  it('keeps each request within 8 KB of tags', async () => {
    const { purge, sent } = recorded()
    const long = Array.from({ length: 100 }, (_, index) => `/books/${index}${'x'.repeat(190)}`)
    await purge(long)
    for (const batch of sent) expect(batch.join(' ').length).toBeLessThanOrEqual(8_000)
    expect(sent.flat()).toEqual(long)
  })

  it('refuses a maxTags that is no positive integer, naming it', () => {
    for (const maxTags of [0, -1, 1.5, Number.NaN])
      expect(() => httpPurge({ url: 'http://cache.test/', maxTags })).toThrow(/maxTags/)
  })
})
