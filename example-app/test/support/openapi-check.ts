/**
 * Checks every response an app answers against the app's own OpenAPI document: wrap the app's
 * `fetch` before serving it, let the tests run, then read the result. A GET answered on a path of
 * the document must have a status the operation documents, a media type it lists, and a body the
 * schema of that status and type accepts (JSON Schema 2020-12 through Ajv, formats included).
 * Requests on paths the document does not list (contexts, `/docs.jsonld`, errors, other methods)
 * are counted as not checked.
 */
import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'

type Fetch = (request: Request) => Response | Promise<Response>

interface Operation {
  responses: Record<string, { content?: Record<string, unknown>; $ref?: string }>
}

interface OpenApiDocument {
  servers?: { url: string }[]
  paths: Record<string, { get?: Operation }>
  components: { responses?: Record<string, { content?: Record<string, unknown> }> }
}

export interface OpenApiCheckResult {
  /** Responses checked against a schema. */
  checked: number
  /** Per documented path template, how many responses were checked (coverage). */
  byPath: Record<string, number>
  /** What did not match: the request, the status and what the validator said. */
  violations: string[]
}

export interface OpenApiCheck {
  fetch: (request: Request) => Promise<Response>
  /** Waits for the responses still being read, then says what was checked and what failed. */
  result: () => Promise<OpenApiCheckResult>
}

const DOCUMENT_ID = 'https://openapi.test/openapi.json'

/** `/books/{id}` as a pattern of one path segment per variable. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)

/** JSON Pointer escaping of one token. */
const token = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1')

export function checkedAgainstOpenApi(
  fetch: Fetch,
  options: { documentPath?: string } = {}
): OpenApiCheck {
  const documentPath = options.documentPath ?? '/openapi.json'
  const result: OpenApiCheckResult = { checked: 0, byPath: {}, violations: [] }
  const pending: Promise<void>[] = []
  let loaded:
    | Promise<{ document: OpenApiDocument; ajv: Ajv2020; routes: [string, RegExp][] }>
    | undefined
  const validators = new Map<string, ValidateFunction>()

  const load = (origin: string) => {
    loaded ??= (async () => {
      const response = await fetch(new Request(`${origin}${documentPath}`))
      const document = (await response.json()) as OpenApiDocument
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      formats.default(ajv)
      ajv.addSchema({ ...document, $id: DOCUMENT_ID })
      // The paths are under the server's URL, the mount path (`/api`). Literal paths before
      // templates: `/books/recent` is not the item `/books/{id}`.
      const server = document.servers?.[0]?.url ?? '/'
      const mount = server === '/' ? '' : server
      const routes = Object.keys(document.paths)
        .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
        .map((path): [string, RegExp] => [path, templatePattern(`${mount}${path}`)])
      return { document, ajv, routes }
    })()
    return loaded
  }

  async function check(request: Request, response: Response): Promise<void> {
    const url = new URL(request.url)
    const { document, ajv, routes } = await load(url.origin)
    const path = routes.find(([, pattern]) => pattern.test(url.pathname))?.[0]
    const operation = path === undefined ? undefined : document.paths[path]?.get
    if (!path || !operation) return
    const where = `GET ${url.pathname}${url.search} → ${response.status}`
    const status = String(response.status)
    const declared = operation.responses[status]
    if (!declared) {
      result.violations.push(`${where}: status not documented for ${path}`)
      return
    }
    const [pointer, answer] = declared.$ref
      ? [
          `#/components/responses/${token(declared.$ref.split('/').pop() as string)}`,
          document.components.responses?.[declared.$ref.split('/').pop() as string],
        ]
      : [`#/paths/${token(path)}/get/responses/${status}`, declared]
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
    if (!answer?.content?.[type]) {
      result.violations.push(`${where}: media type "${type}" not documented`)
      return
    }
    const key = `${pointer}/content/${token(type)}/schema`
    let validate = validators.get(key)
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${key}` })
      validators.set(key, validate)
    }
    // A response the client abandoned cannot be read to its end: not checked.
    const text = await response.text().catch(() => undefined)
    if (text === undefined) return
    const body = JSON.parse(text) as unknown
    result.checked++
    result.byPath[path] = (result.byPath[path] ?? 0) + 1
    if (!validate(body))
      result.violations.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`)
  }

  return {
    async fetch(request) {
      const response = await fetch(request)
      if (request.method === 'GET' && response.status !== 304 && response.body) {
        const copy = response.clone()
        // Read beside the client, so streamed responses stream as they would unchecked.
        pending.push(
          check(request, copy).catch((error: unknown) => {
            result.violations.push(`GET ${request.url}: ${String(error)}`)
          })
        )
      }
      return response
    },
    async result() {
      await Promise.all(pending)
      return result
    },
  }
}
