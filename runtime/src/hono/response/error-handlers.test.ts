import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { hydraErrorHandler } from './error-handlers.js'

describe("hydraErrorHandler: an outage from an application's own route", () => {
  it('is a 503 with Retry-After, logged each time (its database is unknown here)', async () => {
    const refused = () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    const app = new Hono()
      .get('/own', () => {
        throw refused()
      })
      .onError(hydraErrorHandler)
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      for (let round = 0; round < 2; round++) {
        const response = await app.request('/own', { headers: { Accept: 'application/ld+json' } })
        expect(response.status).toBe(503)
        expect(response.headers.get('Retry-After')).toBe('5')
      }
      expect(log).toHaveBeenCalledTimes(2)
      expect(String(log.mock.calls[0]?.[0])).toContain('ECONNREFUSED')
    } finally {
      log.mockRestore()
    }
  })
})
