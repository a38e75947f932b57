/**
 * A client of the composite-keys fixture as its users write one: types generated from its
 * `/openapi.json` by openapi-typescript (`schema.d.ts`, written beside a copy of this folder by
 * composite-key-clients.e2e.test.ts through test/support/openapi-typescript-client.ts) and
 * openapi-fetch. The test type-checks the copy with tsc, then runs it against the server: a call
 * the generated types refuse fails the check, a wrong answer fails the test.
 */
import createClient from 'openapi-fetch'
import type { CompositeReads } from './reads.js'
import type { paths } from './schema.js'

export function compositeReads(baseUrl: string, sent: string[] = []): CompositeReads {
  const client = createClient<paths>({
    baseUrl,
    fetch: (request: Request) => {
      sent.push(new URL(request.url).pathname)
      return fetch(request)
    },
  })
  return {
    async line(id) {
      const { response, data, error } = await client.GET('/order-lines/{id}', {
        params: { path: { id } },
      })
      return {
        status: response.status,
        iri: data?.['@id'],
        detail: error?.detail,
        quantity: data?.quantity,
        notes: data?.notes,
      }
    },
    async notesOfLine(id) {
      const { response, data, error } = await client.GET('/order-lines/{id}/notes', {
        params: { path: { id } },
      })
      return {
        status: response.status,
        iri: data?.['@id'],
        detail: error?.detail,
        texts: (data?.['hydra:member'] ?? []).map((note) => note.text),
      }
    },
    async shelf(id) {
      const { response, data, error } = await client.GET('/shelves/{id}', {
        params: { path: { id } },
      })
      return {
        status: response.status,
        iri: data?.['@id'],
        detail: error?.detail,
        label: data?.label,
      }
    },
  }
}
