/**
 * The OpenAPI 3.1 document of an API (docs/openapi.md), rendered from the description its Hydra
 * entrypoint and documentation are rendered from (hydra/documentation.ts): every collection
 * operation, item and sub-collection, every parameter it reads, the JSON-LD documents it answers
 * and the problems it can answer. Pure: paths are written under the mount path.
 */

import { hideableBy } from '../data/inverse-links.js'
import { errorBody } from '../errors.js'
import { withoutRelation } from '../filters/without-relation.js'
import {
  type ApiDescription,
  type ApiLocation,
  type DocumentedCollection,
  type DocumentedType,
  docsPath,
  entrypointKey,
} from '../hydra/documentation.js'
import { changesPageSchema, goneProblem, SINCE_PARAMETER } from './change-feed.js'
import { preferenceAppliedHeader, preferParameter } from './count-preference.js'
import { isGuarded, type RouteOwner, securityScheme } from './guards.js'
import { idParameter } from './key-parameter.js'
import { PAGE_LINK_HEADER } from './link-header.js'
import {
  declaredMemberSchema,
  itemDeclarations,
  memberDeclarations,
  memberShapeOf,
  shapedMemberSchema,
} from './member-shape.js'
import { collectionParameters, itemParameters, type Parameter } from './parameters.js'
import {
  collectionSchema,
  itemSchema,
  memberSchema,
  problemSchema,
  type Schema,
  SHARED,
  schemaNames,
  schemaRef,
  searchSchema,
  viewSchema,
} from './schemas.js'

const OPENAPI_PATH = '/openapi.json'
export const openApiPath = (base: string) => `${base}${OPENAPI_PATH}`

const JSON_LD = 'application/ld+json'
const JSON_TYPE = 'application/json'
const PROBLEM = 'application/problem+json'

/** What each status a route answers means, and an example of its problem's detail. */
const PROBLEMS = {
  400: {
    description: 'A parameter was refused: the detail names it and says why.',
    detail: 'Page should not be less than 1',
  },
  404: { description: 'No item has this key.', detail: 'No Book with id "0".' },
  406: {
    description: 'The request accepts neither application/ld+json nor application/json.',
    detail: `This API serves ${JSON_LD} and ${JSON_TYPE}; the request accepts only: text/html.`,
  },
  500: {
    description: 'The server could not complete the request; the cause is logged.',
    detail: 'Internal Server Error',
  },
  503: {
    description: 'The database is unreachable, overloaded or past its time budget.',
    detail: 'The database is unavailable; try again later.',
  },
  // Answered by guarded routes only (docs/security.md).
  401: {
    description: 'The caller should authenticate: WWW-Authenticate says how.',
    detail: 'Authentication is required to read this resource.',
  },
  403: {
    description: 'The caller may not use this operation.',
    detail: 'The caller may not read this resource.',
  },
} as const
type ProblemStatus = keyof typeof PROBLEMS
/** What a problem response says: what its status means, and its example's detail. */
interface Problem {
  description: string
  detail: string
}

/** One GET operation of the document. */
interface Operation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  parameters: Parameter[]
  responses: Record<string, unknown>
  /** A guarded route's scheme (the document's own `security` is none). */
  security?: Record<string, string[]>[]
}

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/**
 * The responses of a route: its document (in both media types, with its `headers` when it has
 * some), then its problems.
 */
function responses(
  ok: { description: string; schema: Schema; headers?: Record<string, unknown> | undefined },
  statuses: readonly ProblemStatus[]
): Record<string, unknown> {
  const content = { [JSON_LD]: { schema: ok.schema }, [JSON_TYPE]: { schema: ok.schema } }
  const headers = ok.headers ? { headers: ok.headers } : {}
  const answers: Record<string, unknown> = {
    200: { description: ok.description, ...headers, content },
  }
  for (const status of statuses) answers[status] = { $ref: `#/components/responses/${status}` }
  return answers
}

/** A problem response, with the example of each style (`hydra:` prefix or not) under the mount. */
function problemResponse(
  status: ProblemStatus | 410,
  base: string,
  { description, detail }: Problem
): Record<string, unknown> {
  const headers =
    status === 503
      ? {
          'Retry-After': {
            description: 'Seconds to wait before trying again.',
            schema: { type: 'integer' },
          },
        }
      : status === 401
        ? {
            'WWW-Authenticate': {
              description: 'How to authenticate.',
              schema: { type: 'string' },
            },
          }
        : undefined
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      [PROBLEM]: {
        schema: schemaRef(SHARED.problem),
        examples: {
          hydra: { value: errorBody(status, detail, { base, hydraPrefix: true }) },
          unprefixed: { value: errorBody(status, detail, { base, hydraPrefix: false }) },
        },
      },
    },
  }
}

/** The GET operation of a collection of `type`, reached at `path` (`{id}` for a parent's key). */
function collectionOperation(
  type: DocumentedType,
  collection: DocumentedCollection,
  naming: { operationId: string; summary: string; parent?: Parameter }
): Operation {
  const prefix = collection.hydraPrefix !== false
  const prefer = preferParameter(collection.paging)
  return {
    operationId: naming.operationId,
    summary: naming.summary,
    ...(collection.description ? { description: collection.description } : {}),
    tags: [type.name],
    parameters: [
      ...(naming.parent ? [naming.parent] : []),
      ...collectionParameters(type, collection.paging, collection.query),
      ...(prefer ? [prefer] : []),
    ],
    responses: responses(
      {
        description: `A page of ${type.name} resources.`,
        schema: schemaRef(schemaNames(type).collection(prefix)),
        headers: { ...PAGE_LINK_HEADER, ...preferenceAppliedHeader(collection.paging) },
      },
      naming.parent ? [400, 404, 406, 500, 503] : [400, 406, 500, 503]
    ),
  }
}

/**
 * The change feed of `type` (docs/syncing.md): its members as the collection writes them, or
 * tombstones; the view's `next` to resume from, and `upToDate`. A scope the log cannot evaluate
 * is a 403, whether or not the route is guarded.
 */
function changesEntry(type: DocumentedType, path: string, base: string): PathEntry {
  const answers = responses(
    {
      description: `The ${type.name} resources changed since the token.`,
      schema: changesPageSchema(type),
    },
    [400, 403, 406, 500, 503]
  )
  const operation: Operation = {
    operationId: `get${type.name}Changes`,
    summary: `Retrieves the ${type.name} resources changed since a token.`,
    tags: [type.name],
    parameters: [SINCE_PARAMETER, ...itemParameters(type.properties)],
    // Its 410 names its own collection, to read again: written here, not shared.
    responses: { ...answers, 410: problemResponse(410, base, goneProblem(path, base)) },
  }
  return [path, operation, { model: type.name, operation: 'collection' }]
}

/**
 * A path, its GET operation, what it is served as (its guards) and the collection style it answers
 * (none for an item).
 */
type PathEntry = [string, Operation, RouteOwner, { type: string; prefix: boolean }?]

/** The paths of one type: its collections, its items and the sub-collections of its relations. */
function typePaths(
  type: DocumentedType,
  types: ReadonlyMap<string, DocumentedType>,
  base: string
): PathEntry[] {
  const paths: PathEntry[] = type.collections.map((collection) => {
    const main = collection.name === entrypointKey(type.name, 'collection')
    return [
      collection.path,
      collectionOperation(type, collection, {
        operationId: `get${capitalized(collection.name)}Collection`,
        summary: main
          ? `Retrieves the collection of ${type.name} resources.`
          : `Retrieves the ${type.name} resources at ${base}${collection.path}.`,
      }),
      { model: type.name, operation: collection.operation ?? 'collection' },
      { type: type.name, prefix: collection.hydraPrefix !== false },
    ]
  })
  if (type.changesPath !== undefined) paths.push(changesEntry(type, type.changesPath, base))
  if (!type.itemPath) return paths
  paths.push([
    `${type.itemPath}/{id}`,
    {
      operationId: `get${type.name}`,
      summary: `Retrieves one ${type.name} resource.`,
      tags: [type.name],
      parameters: [
        idParameter(type.idKind, type.name, type.keyFields),
        ...itemParameters(type.properties),
      ],
      responses: responses(
        { description: `The ${type.name}.`, schema: schemaRef(schemaNames(type).item) },
        type.properties ? [400, 404, 406, 500, 503] : [404, 406, 500, 503]
      ),
    },
    { model: type.name, operation: 'item' },
  ])
  // A to-many relation's sub-collection is served as the target's first collection operation.
  for (const link of type.links ?? []) {
    const target = types.get(link.target.name)
    const main = target?.collections[0]
    if (link.kind !== 'many' || !target || !main) continue
    // The sub-collection reads its target's parameters but those on the relation back to it.
    const operation =
      link.back && main.query ? { ...main, query: withoutRelation(main.query, link.back) } : main
    paths.push([
      `${type.itemPath}/{id}/${link.name}`,
      collectionOperation(target, operation, {
        operationId: `get${type.name}${capitalized(link.name)}Collection`,
        summary: `Retrieves the ${link.name} of one ${type.name} (${target.name} resources).`,
        parent: idParameter(
          type.idKind,
          `${type.name} whose ${link.name} are listed`,
          type.keyFields
        ),
      }),
      { model: target.name, operation: main.operation ?? 'collection', parent: type.name },
      { type: target.name, prefix: operation.hydraPrefix !== false },
    ])
  }
  return paths
}

/** The schemas of every type and the shared ones, each collection style only where it is served. */
function componentSchemas(
  api: ApiDescription,
  styles: ReadonlyMap<string, ReadonlySet<boolean>>
): Record<string, Schema> {
  const schemas: Record<string, Schema> = {}
  const used = new Set<boolean>()
  for (const type of api.types) {
    const names = schemaNames(type)
    // Rules are by model name, the name of a generated type.
    const hideable = hideableBy(api.access, type.name)
    const member = memberSchema(type, hideable)
    const shape = memberShapeOf(type)
    const prefixes = [...(styles.get(type.name) ?? [true])]
    // One member schema serves every collection operation: it holds each one's declared shapes.
    schemas[names.member] = declaredMemberSchema(
      shape ? shapedMemberSchema(member, shape) : member,
      memberDeclarations(type.embedded),
      prefixes
    )
    if (type.itemPath) {
      const item = itemSchema(type, hideable)
      // Items are shaped by their own property filter alone.
      const own = memberShapeOf({ collections: [], properties: type.properties })
      const shaped = own ? shapedMemberSchema(item, own) : item
      schemas[names.item] = declaredMemberSchema(shaped, itemDeclarations(type.embedded), prefixes)
    }
    for (const prefix of styles.get(type.name) ?? []) {
      schemas[names.collection(prefix)] = collectionSchema(type, prefix)
      used.add(prefix)
    }
  }
  for (const prefix of used) {
    schemas[SHARED.view(prefix)] = viewSchema(prefix)
    schemas[SHARED.search(prefix)] = searchSchema(prefix)
  }
  schemas[SHARED.problem] = problemSchema()
  return schemas
}

/**
 * The OpenAPI 3.1 document of the API. Its server is the mount path (`/`, `/api`), relative to
 * where the document is read, so the paths are the routes' own (`/books/{id}`).
 *
 * @example
 * The document written to a file, at build time:
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { renderOpenApi } from '@prisma-hydra/runtime'
 * import { hydraTypes } from './generated/hydra/index.js'
 *
 * const api = { title: 'Library API', types: hydraTypes }
 * const document = renderOpenApi(api, { origin: 'https://api.example.com', base: '/api' })
 * writeFileSync('openapi.json', JSON.stringify(document, null, 2))
 * ```
 */
export function renderOpenApi(api: ApiDescription, location: ApiLocation): Record<string, unknown> {
  const { base } = location
  const types = new Map(api.types.map((type) => [type.name, type]))
  const paths: Record<string, { get: Operation }> = {}
  const styles = new Map<string, Set<boolean>>()
  const security = securityScheme(api.authentication)
  let guarded = false
  for (const type of api.types)
    for (const [path, operation, owner, style] of typePaths(type, types, base)) {
      paths[path] = { get: operation }
      if (style) styles.set(style.type, (styles.get(style.type) ?? new Set()).add(style.prefix))
      if (!isGuarded(api.access, owner)) continue
      guarded = true
      for (const status of [401, 403])
        operation.responses[status] = { $ref: `#/components/responses/${status}` }
      operation.security = [{ [security.name]: [] }]
    }
  const feeds = api.types.some((type) => type.changesPath !== undefined)
  const statuses = (Object.keys(PROBLEMS).map(Number) as ProblemStatus[]).filter((status) => {
    // A feed refuses a caller whose scope the log cannot evaluate, guarded or not.
    if (status === 403) return guarded || feeds
    return status !== 401 || guarded
  })
  return {
    openapi: '3.1.1',
    info: {
      title: api.title,
      version: api.version ?? '0.0.0',
      ...(api.description ? { description: api.description } : {}),
    },
    servers: [{ url: base || '/', description: 'This API, where this document is served.' }],
    // Read-only and open: the API declares no authentication of its own (docs/openapi.md).
    security: [],
    externalDocs: {
      description: 'The Hydra API documentation (JSON-LD) of the same API.',
      url: `${location.origin}${docsPath(base)}`,
    },
    tags: api.types.map((type) => ({
      name: type.name,
      description: type.description ?? `The ${type.name} resources.`,
    })),
    paths,
    components: {
      schemas: componentSchemas(api, styles),
      responses: Object.fromEntries(
        statuses.map((status) => [status, problemResponse(status, base, PROBLEMS[status])])
      ),
      ...(guarded ? { securitySchemes: { [security.name]: security.scheme } } : {}),
    },
  }
}
