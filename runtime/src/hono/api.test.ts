import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { paginateArray } from '../paging/paginators.js'
import { API_DOCUMENTATION_REL, entrypointKey, hydraHeaders } from './api.js'
import { hydraCollection } from './serve.js'

const items = Array.from({ length: 5 }, (_, index) => ({ '@id': `/items/${index + 1}` }))

function app(options: Parameters<typeof hydraHeaders>[0] = {}) {
  return new Hono().use(hydraHeaders(options)).get(
    '/items',
    hydraCollection({ context: '/contexts/Item', paging: { itemsPerPage: 2 } }, (request) =>
      paginateArray(items, request)
    )
  )
}

const LINK = `<http://localhost/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`

describe('hydraHeaders: content negotiation', () => {
  it.each([
    [undefined, 'application/ld+json; charset=utf-8'],
    ['*/*', 'application/ld+json; charset=utf-8'],
    ['*', 'application/ld+json; charset=utf-8'],
    ['application/*', 'application/ld+json; charset=utf-8'],
    ['application/ld+json', 'application/ld+json; charset=utf-8'],
    ['application/json', 'application/json; charset=utf-8'],
    ['APPLICATION/JSON', 'application/json; charset=utf-8'],
    ['application/json, application/ld+json;q=0.9', 'application/json; charset=utf-8'],
    ['application/json;q=0.5, application/ld+json', 'application/ld+json; charset=utf-8'],
    ['text/html, */*;q=0.1', 'application/ld+json; charset=utf-8'],
    ['application/ld+json;q=0, */*', 'application/json; charset=utf-8'],
    ['application/ld+json;q=0, application/*', 'application/json; charset=utf-8'],
  ])('Accept: %s → %s', async (accept, type) => {
    const response = await app().request('/items', {
      headers: accept === undefined ? {} : { Accept: accept },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(type)
    expect(response.headers.get('Link')).toBe(LINK)
    expect(response.headers.get('Vary')).toBe('Accept')
  })

  it.each([
    'text/html',
    'application/xml, text/*',
    'application/ld+json;q=0, application/json;q=0, */*',
    'image/png;q=1',
  ])('Accept: %s → 406 problem+json', async (accept) => {
    const response = await app().request('/items', { headers: { Accept: accept } })
    expect(response.status).toBe(406)
    expect(response.headers.get('Content-Type')).toBe('application/problem+json; charset=utf-8')
    expect(response.headers.get('Link')).toContain(LINK)
    expect(await response.json()).toMatchObject({
      '@type': 'hydra:Error',
      status: 406,
      title: 'Not Acceptable',
      detail: `This API serves application/ld+json and application/json; the request accepts only: ${accept}.`,
    })
  })

  it('writes the 406 without the hydra: prefix when told so', async () => {
    const response = await app({ hydraPrefix: false }).request('/items', {
      headers: { Accept: 'text/html' },
    })
    const body = await response.json()
    expect(body).toMatchObject({ '@type': 'Error', description: expect.any(String) })
    expect(body['hydra:description']).toBeUndefined()
  })

  it('links the documentation on errors too, beside the error link', async () => {
    const response = await app().request('/items?page=0')
    expect(response.status).toBe(400)
    expect(response.headers.get('Link')).toBe(
      `<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error", ${LINK}`
    )
  })

  it('links the documentation under the mount path', async () => {
    const response = await new Hono().route('/api/v1', app()).request('/api/v1/items')
    expect(response.headers.get('Link')).toBe(
      `<http://localhost/api/v1/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`
    )
  })
})

describe('hydraHeaders: CORS', () => {
  const origin = 'https://admin.example'
  it('no CORS headers unless origins are given', async () => {
    const response = await app().request('/items', { headers: { Origin: origin } })
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })

  it.each([
    [origin, origin, origin],
    [[origin, 'https://other.example'], origin, origin],
    [(requested: string) => (requested.endsWith('.example') ? requested : null), origin, origin],
    [origin, 'https://evil.example', null],
  ])('allowed %o, request from %s → %s', async (allowed, from, expected) => {
    const response = await app({ cors: allowed }).request('/items', { headers: { Origin: from } })
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(expected)
    if (expected) expect(response.headers.get('Access-Control-Expose-Headers')).toMatch(/Link/)
    expect(response.headers.get('Link')).toBe(LINK)
  })

  it('answers preflights', async () => {
    const response = await app({ cors: origin }).request('/items', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET,HEAD,OPTIONS')
  })
})

describe('entrypointKey', () => {
  it.each([
    ['Book', 'collection', 'book'],
    ['BookReview', 'collection', 'bookReview'],
    ['Book', 'recent', 'bookRecent'],
  ])('%s %s → %s', (name, operation, key) => {
    expect(entrypointKey(name, operation)).toBe(key)
  })
})
