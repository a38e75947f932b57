import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { allowReadsOnly, methodNotAllowed } from './method-not-allowed.js'

/** A sub-app reading `/books` and `/books/:id`, its other methods answered from its own routes. */
const books = () =>
  allowReadsOnly(
    new Hono().get('/books', (c) => c.text('books')).get('/books/:id', (c) => c.text('book'))
  )

describe('allowReadsOnly', () => {
  it('answers other methods on every GET path with a 405 and Allow, OPTIONS with a 204', async () => {
    const app = books()
    const post = await app.request('/books', { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect((await app.request('/books/7', { method: 'DELETE' })).status).toBe(405)
    expect((await app.request('/books/7', { method: 'OPTIONS' })).status).toBe(204)
    expect(await (await app.request('/books/7')).text()).toBe('book')
    expect((await app.request('/authors', { method: 'POST' })).status).toBe(404)
  })

  it('registers each path once when a mounted sub-app already answers it', () => {
    const app = allowReadsOnly(new Hono().route('/', books()).get('/', (c) => c.text('entry')))
    const refusals = app.routes.filter((route) => route.handler === methodNotAllowed)
    expect(refusals.map((route) => route.path).sort()).toEqual(['/', '/books', '/books/:id'])
  })
})
