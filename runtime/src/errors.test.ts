import { describe, expect, it, vi } from 'vitest'
import { HydraError, PROBLEM_JSON, problemResponse } from './errors.js'

describe('HydraError: its problem response is built once, when asked for', () => {
  it('builds no Response when thrown', () => {
    const built = vi.spyOn(globalThis, 'Response')
    try {
      const error = new HydraError(400, 'Page should not be less than 1')
      expect(built).not.toHaveBeenCalled()
      expect(error.res).toBeUndefined()
    } finally {
      built.mockRestore()
    }
  })

  it("gives Hono's default handler the problem+json response, with the headers it was given", async () => {
    const error = new HydraError(406, 'no', { base: '/api', headers: { Vary: 'Accept' } })
    const response = error.getResponse()
    expect(response.status).toBe(406)
    expect(response.headers.get('Content-Type')).toBe(PROBLEM_JSON)
    expect(response.headers.get('Vary')).toBe('Accept')
    expect(await response.json()).toMatchObject({ '@context': '/api/contexts/Error', detail: 'no' })
  })

  it('takes what its style leaves out from the defaults given', async () => {
    const error = new HydraError(404, 'gone', { hydraPrefix: false })
    const body = await error.problem({ base: '/v1', hydraPrefix: true }).json()
    expect(body).toMatchObject({ '@context': '/v1/contexts/Error', '@type': 'Error' })
  })
})

describe('problemResponse', () => {
  it('appends the given headers after its own Link', () => {
    const response = problemResponse(400, 'bad', {
      headers: [['Link', '<https://a/docs>; rel="x"']],
    })
    expect(response.headers.get('Link')).toBe(
      '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error", <https://a/docs>; rel="x"'
    )
  })
})
