import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { badRequest, HydraError } from '../../errors.js'
import { entrypointKey } from '../../hydra/documentation.js'
import { paginateArray } from '../../paging/paginators.js'
import { serveErrorContext } from '../app/context-routes.js'
import { markInsideApi } from '../request/api-scope.js'
import { API_DOCUMENTATION_REL } from '../request/location.js'
import { hydraCollection } from '../routes/custom-collection.js'
import { hydraErrorHandlers } from './error-handlers.js'
import { hydraHeaders } from './hydra-headers.js'
import { jsonLd } from './json-ld.js'

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
/** The `Link` of `/items`, its first page of three under `base`: the documentation, then the view. */
const itemsLink = (base = '') =>
  `<http://localhost${base}/docs.jsonld>; rel="${API_DOCUMENTATION_REL}", <http://localhost${base}/items?page=1>; rel="first", <http://localhost${base}/items?page=3>; rel="last", <http://localhost${base}/items?page=2>; rel="next"`

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
    ['application/json;q=0.5, application/ld+json;q=0.5', 'application/ld+json; charset=utf-8'],
    ['application/json;q=1.5, application/ld+json', 'application/ld+json; charset=utf-8'],
    ['application/*;q=0.2, application/json;q=0.1', 'application/ld+json; charset=utf-8'],
  ])('Accept: %s → %s', async (accept, type) => {
    const response = await app().request('/items', {
      headers: accept === undefined ? {} : { Accept: accept },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(type)
    expect(response.headers.get('Link')).toBe(itemsLink())
    expect(response.headers.get('Vary')).toBe('Accept')
  })

  it.each([
    'text/html',
    'application/xml, text/*',
    'application/ld+json;q=0, application/json;q=0, */*',
    'image/png;q=1',
    'application/*;q=0, */*',
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
    expect(response.status).toBe(406)
    const body = await response.json()
    expect(body).toMatchObject({ '@type': 'Error', description: expect.any(String) })
    expect(body['hydra:description']).toBeUndefined()
  })

  it('writes the 406 of a route without the hydra: prefix when the route has none', async () => {
    const unprefixed = new Hono().use(hydraHeaders({ hydraPrefix: false })).get(
      '/items',
      hydraCollection({ context: '/contexts/Item', hydraPrefix: false }, (request) =>
        paginateArray(items, request)
      )
    )
    const response = await unprefixed.request('/items', { headers: { Accept: 'text/html' } })
    expect(response.status).toBe(406)
    const body = await response.json()
    expect(body).toMatchObject({ '@type': 'Error', description: expect.any(String) })
    expect(body['hydra:description']).toBeUndefined()
  })

  it('links the documentation on errors too, beside the error link and the context', async () => {
    const response = await app().request('/items?page=0')
    expect(response.status).toBe(400)
    expect(response.headers.get('Link')).toBe(
      `<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error", ${LINK}, <http://localhost/contexts/Error>; rel="http://www.w3.org/ns/json-ld#context"`
    )
  })

  it('links the documentation under the mount path', async () => {
    const response = await new Hono().route('/api/v1', app()).request('/api/v1/items')
    expect(response.headers.get('Link')).toBe(itemsLink('/api/v1'))
  })
})

describe("hydraHeaders: only the API's own responses", () => {
  const mixed = () =>
    new Hono()
      .route('/', app())
      .get('/health', (c) => c.text('ok'))
      .get('/moved', (c) => c.redirect('/items'))

  it('leaves other routes of the app it is mounted in alone', async () => {
    const health = await mixed().request('/health', { headers: { Accept: 'text/plain' } })
    expect(health.status).toBe(200)
    expect(await health.text()).toBe('ok')
    expect(health.headers.get('Link')).toBeNull()
    const moved = await mixed().request('/moved')
    expect(moved.status).toBe(302)
    expect(moved.headers.get('Link')).toBeNull()
  })

  it('acts once when applied twice', async () => {
    const twice = new Hono().use(hydraHeaders()).route('/', app())
    const response = await twice.request('/items')
    expect(response.headers.get('Link')).toBe(itemsLink())
    expect(response.headers.get('Vary')).toBe('Accept')
  })

  it('collections served without the prefix keep it off in their errors', async () => {
    const plain = new Hono().use(hydraHeaders()).get(
      '/items',
      hydraCollection(
        { context: '/contexts/Item', paging: { itemsPerPage: 2 }, hydraPrefix: false },
        (request) => paginateArray(items, request)
      )
    )
    const page = await (await plain.request('/items?page=2')).json()
    expect(page).toEqual({
      '@context': '/contexts/Item',
      '@id': '/items',
      '@type': 'Collection',
      totalItems: 5,
      member: items.slice(2, 4),
      view: {
        '@id': '/items?page=2',
        '@type': 'PartialCollectionView',
        first: '/items?page=1',
        last: '/items?page=3',
        previous: '/items?page=1',
        next: '/items?page=3',
      },
      // Its parameters' template, named: the entry page holds it, unprefixed too.
      search: { '@id': '/items#search' },
    })
    expect((await (await plain.request('/items')).json()).search).toEqual(
      expect.objectContaining({ '@type': 'IriTemplate', template: '/items{?page}' })
    )
    const error = await plain.request('/items?page=x')
    expect(error.status).toBe(400)
    expect(await error.json()).toEqual({
      '@context': '/contexts/Error',
      '@id': '/errors/400',
      '@type': 'Error',
      type: '/errors/400',
      title: 'An error occurred',
      detail: 'The "page" parameter must be a decimal integer, "x" given.',
      status: 400,
      description: 'The "page" parameter must be a decimal integer, "x" given.',
    })
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
    expect(response.headers.get('Link')).toBe(itemsLink())
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

describe('hydraHeaders: responses built by the route itself', () => {
  it('are passed through as built, even when their headers cannot change', async () => {
    const upstream = new Hono().get('/remote', (c) =>
      c.body('{"@id":"/remote"}', 200, { 'Content-Type': 'application/ld+json; charset=utf-8' })
    )
    const proxy = new Hono().use(hydraHeaders()).get('/remote', async () => {
      const response = await upstream.request('/remote')
      // A fetched response's headers are immutable, as a proxy's would be.
      return new Proxy(response, {
        get(target, key) {
          if (key === 'headers') {
            const frozen = new Headers(target.headers)
            frozen.append = () => {
              throw new TypeError('immutable')
            }
            frozen.set = frozen.append
            return frozen
          }
          const value = Reflect.get(target, key, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    })
    const response = await proxy.request('/remote')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ '@id': '/remote' })
    const refused = await proxy.request('/remote', { headers: { Accept: 'text/html' } })
    expect(refused.status).toBe(406)
    expect(refused.headers.get('Link')).toContain(LINK)
  })
})

describe('routes without the middleware (the generated app without CORS)', () => {
  const bare = (options: { hydraPrefix?: boolean } = {}) => {
    const errors = hydraErrorHandlers(options)
    const routes = new Hono()
      .get(
        '/items',
        hydraCollection({ context: '/contexts/Item', paging: { itemsPerPage: 2 } }, (request) =>
          paginateArray(items, request)
        )
      )
      .get('/failing', () => {
        throw badRequest('Something the client sent is wrong.')
      })
      .get('/contexts/Error', (c) => serveErrorContext(c))
    routes.onError(errors.onError)
    routes.notFound(errors.notFound)
    return new Hono().route('/api', routes)
  }
  const link = `<http://localhost/api/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`

  it.each([
    [undefined, 'application/ld+json; charset=utf-8'],
    ['application/json', 'application/json; charset=utf-8'],
    ['text/html, */*;q=0.1', 'application/ld+json; charset=utf-8'],
  ])('negotiate and write Link and Vary themselves (Accept: %s)', async (accept, type) => {
    const response = await bare().request('/api/items?page=2', {
      headers: accept === undefined ? {} : { Accept: accept },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(type)
    const page = (number: number, rel: string) =>
      `<http://localhost/api/items?page=${number}>; rel="${rel}"`
    expect(response.headers.get('Link')).toBe(
      [link, page(1, 'first'), page(3, 'last'), page(1, 'prev'), page(3, 'next')].join(', ')
    )
    expect(response.headers.get('Vary')).toBe('Accept')
    expect((await response.json())['hydra:view']['hydra:next']).toBe('/api/items?page=3')
  })

  it('refuse a client that accepts neither JSON-LD nor JSON, on collections, contexts and errors', async () => {
    for (const path of ['/api/items', '/api/contexts/Error', '/api/failing']) {
      const response = await bare().request(path, { headers: { Accept: 'text/html' } })
      expect(response.status, path).toBe(406)
      expect(response.headers.get('Content-Type')).toBe('application/problem+json; charset=utf-8')
      expect(response.headers.get('Link')).toContain(link)
      expect(await response.json()).toMatchObject({
        '@context': '/api/contexts/Error',
        '@type': 'hydra:Error',
        status: 406,
      })
    }
  })

  it('the not-found handler refuses such a client too, inside the API', async () => {
    const errors = hydraErrorHandlers()
    // What a generated app's last route does (serveUnmatched).
    const api = new Hono().all('/*', (c, next) => {
      markInsideApi(c)
      return next()
    })
    const app = new Hono().route('/api', api)
    app.notFound(errors.notFound)
    const refused = await app.request('/api/nowhere', { headers: { Accept: 'text/html' } })
    expect(refused.status).toBe(406)
    const missing = await app.request('/api/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Link')).toContain(`<http://localhost/api/docs.jsonld>`)
    // Outside the API, nothing of it resolves: a plain problem, whatever the client accepts.
    for (const accept of ['text/html', 'application/ld+json']) {
      const outside = await app.request('/nowhere', { headers: { Accept: accept } })
      expect(outside.status).toBe(404)
      expect(outside.headers.get('Link')).toBeNull()
      expect(await outside.json()).toEqual({
        title: 'Not Found',
        detail: 'No route matches GET /nowhere.',
        status: 404,
      })
    }
  })

  it('write errors thrown without a style in the app style: its mount path and prefix', async () => {
    const response = await bare({ hydraPrefix: false }).request('/api/failing')
    expect(response.status).toBe(400)
    expect(response.headers.get('Link')).toContain(link)
    expect(await response.json()).toMatchObject({
      '@context': '/api/contexts/Error',
      '@type': 'Error',
      detail: 'Something the client sent is wrong.',
      description: 'Something the client sent is wrong.',
    })
  })
})

describe('errors and refusals in apps assembled by hand', () => {
  it('logs a failure of the server even when the client is answered a 406', async () => {
    const errors = hydraErrorHandlers()
    const app = new Hono().get('/broken', () => {
      throw new Error('database down')
    })
    app.onError(errors.onError)
    const logged: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => logged.push(...args)
    try {
      const response = await app.request('/broken', { headers: { Accept: 'text/html' } })
      expect(response.status).toBe(406)
    } finally {
      console.error = original
    }
    expect(logged).toContainEqual(new Error('database down'))
  })

  it('hydraHeaders writes the 406 of a builder under the mount path, with Hono error handling', async () => {
    const api = new Hono()
      .use(hydraHeaders({ hydraPrefix: false }))
      .get('/docs', (c) => jsonLd(c, { '@id': '/docs' }))
    const response = await new Hono()
      .route('/api', api)
      .request('/api/docs', { headers: { Accept: 'text/html' } })
    expect(response.status).toBe(406)
    expect(await response.json()).toMatchObject({
      '@context': '/api/contexts/Error',
      '@type': 'Error',
    })
  })

  it('without any middleware or handler of ours, a refused request still gets the mount path and Link', async () => {
    const api = new Hono().get(
      '/items',
      hydraCollection({ context: '/contexts/Item' }, (request) => paginateArray(items, request))
    )
    const response = await new Hono()
      .route('/api', api)
      .request('/api/items', { headers: { Accept: 'text/html' } })
    expect(response.status).toBe(406)
    expect(response.headers.get('Link')).toContain(
      `<http://localhost/api/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`
    )
    expect(response.headers.get('Vary')).toBe('Accept')
    expect(await response.json()).toMatchObject({ '@context': '/api/contexts/Error', status: 406 })
  })

  it('an error given only its prefix takes the mount path of the app', async () => {
    const errors = hydraErrorHandlers()
    const api = new Hono().get('/gone', () => {
      throw new HydraError(404, 'Gone.', { hydraPrefix: false })
    })
    api.onError(errors.onError)
    const response = await new Hono().route('/api', api).request('/api/gone')
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      '@context': '/api/contexts/Error',
      '@type': 'Error',
      description: 'Gone.',
    })
  })
})
