/**
 * Seeded request generation for the HTTP fuzz suite (test/fuzz.e2e.test.ts): routes, parameters,
 * methods and headers of an API, mixed with values chosen to sit on every boundary a parser or a
 * database column has (integer widths, dates a database cannot store, NUL bytes, malformed
 * escapes, brackets, repeated names, oversized queries). The same seed gives the same requests.
 */

import {
  DATE_OPERATORS,
  type PropertySpec,
  type QuerySpec,
  RANGE_OPERATORS,
  type ValueType,
} from '@prisma-hydra/runtime/defaults'
import { seededRandom } from './seeded-random.js'

/**
 * A filter or order parameter of a collection (docs/filters.md) and the values it reads: a Prisma
 * type, `Enum`, `Order` (a direction), `Between` (`min..max` of `of`), `Iri` (of `values`).
 */
export interface FuzzParameter {
  name: string
  type: string
  /** Values the parameter accepts (enum values, related IRIs and ids), mixed with others. */
  values?: readonly string[] | undefined
  /** `Between`: the type of each bound. */
  of?: string | undefined
}

/** A route of the API under test, as the fuzzer knows it. */
export type FuzzRoute = (
  | {
      kind: 'collection'
      path: string
      /** The paging parameter names of the route. */
      parameters: readonly string[]
      /** Cursor key fields (their `[lt|gt|lte|gte]` parameters), with their Prisma types. */
      cursor: readonly { field: string; type: string }[]
      /** Its filter and order parameters, as its `hydra:search` lists them. */
      filters?: readonly FuzzParameter[] | undefined
    }
  | {
      kind: 'item'
      path: string
      /** The key's kind (`Int`, `DateTime`, `Enum`, `Composite`…), as the resource declares it. */
      idType: string
      known: readonly string[]
      /** Other spellings of known ids (case, trailing space), which name no item: 404s. */
      variants?: readonly string[] | undefined
      /** An enum key's values. */
      values?: readonly string[] | undefined
      /** A composite key's fields, each sent as `name=value` (API Platform's form) or mangled. */
      keyFields?: readonly { name: string; type: string }[] | undefined
      /** A sub-collection's name: the route is `<path>/<key>/<suffix>`, its parent fuzzed. */
      suffix?: string | undefined
      /** Its property filter's parameters, when its model declares one. */
      filters?: readonly FuzzParameter[] | undefined
    }
  | { kind: 'document'; path: string }
) & {
  /** The server serving it, when not the default one. */
  origin?: string | undefined
}

/** One generated request, printable as it was sent. */
export interface FuzzRequest {
  method: string
  path: string
  headers: Record<string, string>
  /** The route the path was made for (undefined: a stray path, which no route may serve). */
  route?: FuzzRoute['kind'] | undefined
  /** The server it is sent to, when not the default one. */
  origin?: string | undefined
  /** The filter and order parameters it carries, by name (`price[gt]`, `order[title]`). */
  filters: string[]
  /**
   * The status the answer must have (one of them), when the request decides it: a refused host, a
   * long target (both: whichever the server reads first).
   */
  expected?: number | readonly number[] | undefined
  /** Sent as it is on a socket of its own (raw UTF-8 in the target, as curl sends it). */
  raw?: boolean | undefined
}

/** The longest request target the API reads (docs/deployment.md#limits); longer ones are 414s. */
const MAX_TARGET = 8192

/** Hosts the servers under test (no allowedHosts, no baseUrl) refuse: malformed, or not local. */
const REFUSED_HOSTS = [
  'evil.example',
  'a:1',
  'a"b',
  'a b',
  'localhost:99999',
  '[zz]',
  'x'.repeat(300),
  'localhost.evil.example',
  '10.0.0.1',
]
/** Hosts they serve. */
const LOCAL_HOSTS = ['[::1]:8080', 'localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1:1']

/**
 * The filter and order parameters of an operation's query spec, with the values each reads
 * (as `queryVariables` of the runtime lists them); `iris` gives a related resource's item IRIs.
 */
export function queryParameters(
  spec: QuerySpec,
  iris: (collectionPath: string) => readonly string[] = () => []
): FuzzParameter[] {
  const parameters: FuzzParameter[] = []
  const typeOf = (value: ValueType): Omit<FuzzParameter, 'name'> =>
    value.type === 'Enum' ? { type: 'Enum', values: value.enumValues ?? [] } : { type: value.type }
  for (const filter of spec.filters) {
    const { field } = filter
    switch (filter.kind) {
      case 'search': {
        // A relation, or the item key (`id[]`), takes IRIs as well as ids.
        const path = filter.relation?.collectionPath ?? filter.items
        const type: Omit<FuzzParameter, 'name'> =
          path !== undefined ? { type: 'Iri', values: iris(path) } : typeOf(filter)
        parameters.push({ name: field, ...type }, { name: `${field}[]`, ...type })
        break
      }
      case 'numeric':
        parameters.push(
          { name: field, ...typeOf(filter) },
          { name: `${field}[]`, ...typeOf(filter) }
        )
        break
      case 'boolean':
        parameters.push({ name: field, type: 'Boolean' })
        break
      case 'range':
        for (const operator of RANGE_OPERATORS) {
          parameters.push(
            operator === 'between'
              ? { name: `${field}[between]`, type: 'Between', of: filter.type }
              : { name: `${field}[${operator}]`, ...typeOf(filter) }
          )
        }
        break
      case 'date':
        for (const operator of DATE_OPERATORS)
          parameters.push({ name: `${field}[${operator}]`, type: 'DateTime' })
        break
      case 'exists':
        parameters.push({ name: `${spec.parameters.exists}[${field}]`, type: 'Boolean' })
        break
    }
  }
  const orderable = [...spec.order.map((entry) => entry.field), ...(spec.id ? [spec.id.field] : [])]
  for (const field of new Set(orderable))
    parameters.push({ name: `${spec.parameters.order}[${field}]`, type: 'Order' })
  parameters.push(...propertyParameters(spec.properties))
  return parameters
}

/**
 * The parameters of a property filter (docs/member-shape.md), a collection's or its items': the
 * names it offers, mixed with others.
 */
export function propertyParameters(properties: PropertySpec | undefined): FuzzParameter[] {
  if (!properties) return []
  const names = properties.properties.map((property) => property.name)
  const parameters: FuzzParameter[] = [
    { name: `${properties.parameter}[]`, type: 'Enum', values: names },
  ]
  for (const { name, embed } of properties.properties)
    if (embed)
      parameters.push({
        name: `${properties.parameter}[${name}][]`,
        type: 'Enum',
        values: embed.fields.map((field) => field.name),
      })
  return parameters
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

const INTEGERS = [
  '0',
  '1',
  '-1',
  '2',
  '3',
  '10',
  '49',
  '50',
  '51',
  '1000',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  `1${'0'.repeat(400)}`,
  '01',
  '001',
  '00',
  '-0',
  '+1',
  ' 1',
  '1 ',
  '1.0',
  '1.5',
  '1e3',
  '1E400',
  '0x10',
  '0b1',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '١٢',
]

const DATES = [
  '2024-01-31T12:00:00Z',
  '2024-01-31T12:00:00.123Z',
  '2024-01-31T12:00:00.123456789Z',
  '2024-01-31',
  '2024-01-31T12:00',
  '2024-01-31T12:00:00+05:30',
  '2024-01-31T12:00:00-0800',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-02-30',
  '2024-13-01',
  '2024-01-31T24:00:00Z',
  '2024-01-31T23:60:00Z',
  '2024-01-31T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '0001-01-01T00:59:59+01:00',
  '1000-01-01',
  '1969-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59-01:00',
  '9999-12-31T23:00:00-23:59',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '275760-09-13',
  '2024-01-31T12:00:00Z ',
  '2024-01-31t12:00:00z',
  '2024-W05',
  '1706702400',
]

const STRINGS = [
  '',
  ' ',
  'a',
  'en',
  'fr',
  'EN',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  "' OR 1=1 --",
  '"; DROP TABLE "Book"; --',
  '\\',
  '%',
  '%%',
  '%zz',
  '%0',
  '%00',
  'en%00',
  '%00en',
  '%C0%80',
  '%ED%A0%80',
  '%FF%FE',
  '%E2%80%AE',
  '%F0%9F%93%9A',
  '%20',
  '%0A',
  '%0D%0A',
  '..',
  '%2e%2e',
  '%2F',
  '/',
  '#',
  '%23',
  '?',
  '&',
  '=',
  '+',
  '%2B',
  'x'.repeat(3000),
  // Past the 8 KB target the API reads: a 414.
  'x'.repeat(MAX_TARGET + 1),
  '%00'.repeat(50),
  'a%00b',
  'é',
  '%C3%A9',
  '漢字',
  '00000000-0000-0000-0000-000000000000',
]

const BOOLEANS = [
  '1',
  '0',
  'true',
  'false',
  'on',
  'off',
  'yes',
  'no',
  'TRUE',
  ' yes ',
  'y',
  'maybe',
]

const ACCEPTS = [
  'application/ld+json',
  'application/json',
  '*/*',
  'text/html',
  'application/xml',
  'application/json;q=0',
  'application/ld+json;q=0, application/json;q=0',
  'application/*',
  'text/*;q=0.5, */*;q=0.1',
  ';;;,,,',
  'application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted"',
]

const OPERATORS = ['lt', 'gt', 'lte', 'gte', 'eq', 'between', '', 'LT']

const DIRECTIONS = ['asc', 'desc', 'ASC', 'Desc', 'up', '', ' asc', 'asc ', 'ascending', '1', '-1']

const DECIMALS = ['1.25', '-0.5', '0.001', '.5', '5.', '1,5', '1e-7', '12345678901234567890.123']

/** `between` values: well formed, open, reversed, too many parts, not numbers. */
const BETWEEN_SHAPES = ['a..b', 'a..', '..b', 'a...b', 'a..b..c', 'a-b', 'b..a', 'a..a']

/** Related items' IRIs as a client could mistype them. */
const IRI_SHAPES = [
  '/',
  '/books/1',
  '/authors/',
  '/authors/1/2',
  '/authors/1?x=1',
  '/authors/%ZZ',
  '/api/authors/1',
  'authors/1',
  '//authors/1',
]

/** Chooses among the fuzzer's values and the API's routes, from one PRNG. */
export class RequestFuzzer {
  private readonly next: () => number
  constructor(
    seed: number,
    private readonly routes: readonly FuzzRoute[],
    /** `Authorization` values the requests carry now and then: identities, and broken ones. */
    private readonly identities: readonly string[] = []
  ) {
    this.next = seededRandom(seed)
  }

  private chance(p: number): boolean {
    return this.next() < p
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T
  }

  private int(max: number): number {
    return Math.floor(this.next() * max)
  }

  /** A value: typed for the parameter when a type is given, anything otherwise. Already encoded. */
  value(type?: string, values: readonly string[] = []): string {
    const roll = this.next()
    let raw: string
    if (values.length > 0 && roll < 0.4) raw = this.pick(values)
    else if (type === 'Order' && roll < 0.8) raw = this.pick(DIRECTIONS)
    else if (type === 'Iri' && roll < 0.6) raw = this.pick(IRI_SHAPES)
    else if (type === 'Between' && roll < 0.8) {
      const bound = () => this.value(this.pick(['Int', 'Decimal', 'String']))
      raw = this.pick(BETWEEN_SHAPES).replace('a', bound()).replace('b', bound())
      return raw
    } else if ((type === 'Decimal' || type === 'Float') && roll < 0.7)
      raw = this.pick([...DECIMALS, ...INTEGERS])
    else if (type === 'DateTime' && roll < 0.7) raw = this.pick(DATES)
    else if ((type === 'Int' || type === 'BigInt') && roll < 0.7) raw = this.pick(INTEGERS)
    else if (type === 'Boolean' && roll < 0.7) raw = this.pick(BOOLEANS)
    else if (type === 'String' && roll < 0.5) raw = this.pick(STRINGS)
    else {
      const any = this.next()
      raw =
        any < 0.35
          ? this.pick(INTEGERS)
          : any < 0.55
            ? this.pick(DATES)
            : any < 0.7
              ? this.pick(BOOLEANS)
              : this.pick(STRINGS)
    }
    // Values that already carry escapes are sent as they are; others are encoded, or sometimes
    // sent raw (spaces and all: the server must cope with what a hand-written client sends).
    if (raw.includes('%')) return raw
    return this.chance(0.85) ? encodeURIComponent(raw) : raw.replace(/[ #]/g, '+')
  }

  /** A parameter name as a client might spell it: plain, bracketed, nested or unknown. */
  private name(base: string): string {
    const roll = this.next()
    if (roll < 0.75) return base
    if (roll < 0.85) return `${base}[]`
    if (roll < 0.9) return `${base}[${this.pick(['0', 'x', '', '1][2', 'lt'])}]`
    if (roll < 0.95) return `${base}%5B%5D`
    return `${base}[a][b]`
  }

  private query(route: FuzzRoute, sent: string[]): string {
    const pairs: string[] = []
    if (this.chance(0.005)) {
      // Past the parser's limit of parameters: never silently truncated.
      const count = 1000 + this.int(100)
      for (let i = 0; i < count; i++) pairs.push(`a${this.chance(0.5) ? i : ''}=1`)
      pairs.push(`page=${this.value('Int')}`)
      return pairs.join('&')
    }
    const count = this.chance(0.15) ? 0 : 1 + this.int(this.chance(0.1) ? 12 : 4)
    const known =
      route.kind === 'collection'
        ? [
            ...route.parameters,
            ...route.cursor.flatMap(({ field }) => OPERATORS.map((op) => `${field}[${op}]`)),
          ]
        : ['page', 'id']
    const filters = route.kind === 'document' ? [] : (route.filters ?? [])
    for (let i = 0; i < count; i++) {
      const roll = this.next()
      if (filters.length > 0 && this.chance(0.45)) {
        pairs.push(...this.filterPairs(this.pick(filters), sent))
      } else if (roll < 0.75 && known.length > 0) {
        const name = this.pick(known)
        const field =
          route.kind === 'collection'
            ? route.cursor.find((key) => name.startsWith(`${key.field}[`))
            : undefined
        const type =
          field?.type ??
          (/^(page|itemsPerPage)$/.test(name)
            ? 'Int'
            : /^(pagination|partial)$/.test(name)
              ? 'Boolean'
              : undefined)
        const plain = field ? name : this.name(name)
        pairs.push(`${plain}=${this.value(type)}`)
        // Repeated: `page=2&page=3`.
        if (this.chance(0.08)) pairs.push(`${plain}=${this.value(type)}`)
      } else if (roll < 0.85) {
        pairs.push(`${this.value('String')}=${this.value()}`)
      } else if (roll < 0.9) {
        pairs.push(this.pick(['&', '=', '==', 'page', 'page=', '=1', '[]=1', '%5B=1', ';']))
      } else {
        pairs.push(`${this.pick(['order[id]', 'exists[x]', 'foo', 'id', 'title'])}=${this.value()}`)
      }
    }
    return pairs.join('&')
  }

  /**
   * One filter or order parameter as a client may send it: typed values and others, a list
   * (`title[]=a&title[]=b`, past the bound of 100 values now and then), an order of many fields,
   * repeated, or with a bracket too many.
   */
  private filterPairs(parameter: FuzzParameter, sent: string[]): string[] {
    sent.push(parameter.name)
    const value = () => this.value(parameter.type, parameter.values ?? [])
    const roll = this.next()
    if (parameter.name.endsWith('[]')) {
      // Past the bound of 100 values, with short ones: a long query is a 431 from Node's parser.
      if (roll < 0.03)
        return Array.from({ length: 101 + this.int(5) }, (_, i) => `${parameter.name}=${i}`)
      return Array.from({ length: 1 + this.int(4) }, () => `${parameter.name}=${value()}`)
    }
    if (parameter.type === 'Order' && roll < 0.05) {
      // More fields than an order takes (10).
      const base = parameter.name.slice(0, parameter.name.indexOf('['))
      return Array.from({ length: 11 }, (_, index) => `${base}[f${index}]=asc`)
    }
    if (roll < 0.06) return [`${parameter.name}[x]=${value()}`]
    if (roll < 0.1) return [`${parameter.name}=${value()}`, `${parameter.name}=${value()}`]
    if (roll < 0.13) return [`${parameter.name.replace(/\[.*$/, '')}=${value()}`]
    return [`${parameter.name}=${value()}`]
  }

  /**
   * Every filter and order parameter of every collection, each with every value of its type's list
   * (and its accepted values), one request each: explicit coverage whatever the seed.
   */
  sweep(): FuzzRequest[] {
    const requests: FuzzRequest[] = []
    for (const route of this.routes) {
      if (route.kind === 'document') continue
      // An item's property filter is swept on its first known item.
      const target = route.kind === 'item' ? `${route.path}/${route.known[0] ?? '1'}` : route.path
      for (const parameter of route.filters ?? []) {
        for (const raw of sweepValues(parameter)) {
          const value = raw.includes('%') ? raw : encodeURIComponent(raw)
          const path = `${target}?${parameter.name}=${value}`
          // A NUL in a text value is the same 400 on every database (never a dropped filter).
          const nul = parameter.type === 'String' && /%00/.test(value)
          requests.push({
            method: 'GET',
            path,
            headers: {},
            route: route.kind,
            origin: route.origin,
            filters: [parameter.name],
            expected: path.length > MAX_TARGET ? 414 : nul ? 400 : undefined,
          })
        }
      }
    }
    return requests
  }

  private path(route: FuzzRoute): string {
    switch (route.kind) {
      case 'collection':
        return this.chance(0.05) ? `${route.path}/` : route.path
      case 'document':
        return route.path
      case 'item': {
        const roll = this.next()
        const id =
          roll < 0.3 && route.known.length > 0
            ? this.pick(route.known)
            : route.keyFields && roll < 0.8
              ? this.compositeKey(route.keyFields)
              : roll < 0.8
                ? this.value(route.idType, route.values)
                : this.value()
        const tail = this.chance(0.03) ? this.pick(['/', '/x', '/1/2', '%2F1']) : ''
        return `${route.path}/${id}${route.suffix ? `/${route.suffix}` : ''}${tail}`
      }
    }
  }

  /**
   * A composite key as API Platform writes it (`a=1;b=2`), with values of each field's type, or
   * mangled: a field missing, repeated or out of order, a separator encoded or doubled.
   */
  private compositeKey(fields: readonly { name: string; type: string }[]): string {
    const parts = fields.map((field) => `${field.name}=${this.value(field.type)}`)
    const roll = this.next()
    if (roll < 0.6) return parts.join(';')
    if (roll < 0.7) return parts.slice(1).join(';')
    if (roll < 0.75) return [...parts].reverse().join(';')
    if (roll < 0.8) return [...parts, parts[0]].join(';')
    if (roll < 0.85) return parts.join('%3B')
    if (roll < 0.9) return parts.join(';;')
    if (roll < 0.95) return parts.map((part) => part.replace('=', '%3D')).join(';')
    return `${parts.join(';')};`
  }

  /** Paths no route serves, or serves only when read a certain way. */
  private strayPath(): string {
    const route = this.pick(this.routes)
    return this.pick([
      `${route.path}${route.path}`,
      `//${route.path.slice(1)}`,
      `${route.path}/..`,
      `${route.path}/%2e%2e/`,
      `${route.path.toUpperCase()}`,
      `/contexts/${this.value('String')}`,
      `/${this.value('String')}`,
      `/errors/${this.value('Int')}`,
      '/docs.jsonld/',
      '/docs',
      '/contexts/',
      '/%00',
      '/index.php',
    ])
  }

  request(): FuzzRequest {
    const roll = this.next()
    const method = roll < 0.72 ? 'GET' : roll < 0.78 ? 'HEAD' : this.pick(METHODS)
    const route = this.pick(this.routes)
    const stray = this.chance(0.08)
    // Another spelling of a known text id names no item.
    const variant =
      !stray && route.kind === 'item' && route.variants?.length && this.chance(0.15)
        ? this.pick(route.variants)
        : undefined
    let path =
      variant !== undefined
        ? `${route.path}/${variant}`
        : stray
          ? this.strayPath()
          : this.path(route)
    const filters: string[] = []
    if (variant === undefined && (!this.chance(0.3) || route.kind === 'collection')) {
      const query = this.query(route, filters)
      if (query !== '' || this.chance(0.05)) path += `?${query}`
    }
    const headers: Record<string, string> = {}
    if (this.identities.length > 0 && this.chance(0.5))
      headers.authorization = this.pick(this.identities)
    if (this.chance(0.1)) headers.accept = this.pick(ACCEPTS)
    if (this.chance(0.05)) headers.origin = this.pick(['http://localhost:5173', 'null', 'x'])
    const refusedHost = this.chance(0.03)
    if (refusedHost) headers.host = this.pick(REFUSED_HOSTS)
    else if (this.chance(0.02)) headers.host = this.pick(LOCAL_HOSTS)
    const edge = this.edge(path, headers)
    return {
      method,
      path: edge.path,
      headers,
      route: stray ? undefined : route.kind,
      origin: stray ? undefined : route.origin,
      filters: stray ? [] : filters,
      raw: edge.raw,
      expected: edge.expected ?? this.expectedStatus(edge.path, refusedHost, variant, method),
    }
  }

  /** The status a request must get for its target, host or id, when they decide it. */
  private expectedStatus(
    path: string,
    refusedHost: boolean,
    variant: string | undefined,
    method: string
  ): number | readonly number[] | undefined {
    const long = sendable(path).length > MAX_TARGET
    // Node's adapter refuses a backslash in the path (a 400) before the app reads the target.
    if (long && (refusedHost || path.split('?')[0]?.includes('\\'))) return [400, 414]
    if (long) return 414
    if (refusedHost) return 400
    if (variant !== undefined && (method === 'GET' || method === 'HEAD')) return 404
    return undefined
  }

  /**
   * Now and then, a request at the edge of what a server reads: a target past 8 KB or past Node's
   * 16 KB head (414), a header past 16 KB (431), raw UTF-8 in the target (400).
   */
  private edge(
    path: string,
    headers: Record<string, string>
  ): { path: string; raw?: boolean; expected?: number | undefined } {
    const roll = this.next()
    const separator = path.includes('?') ? '&' : '?'
    // Past 8 KB: the 414 (or a refused host's 400) follows from the path.
    if (roll < 0.01) return { path: `${path}${separator}x=${'y'.repeat(MAX_TARGET)}` }
    if (roll < 0.015) return { path: `${path}${separator}x=${'y'.repeat(17000)}`, expected: 414 }
    if (roll < 0.02) {
      headers['x-big'] = 'z'.repeat(17000)
      // A request line past 8 KB is named first.
      return { path, expected: sendable(path).length > MAX_TARGET ? 414 : 431 }
    }
    if (roll < 0.03) return { path: `${path}${separator}name=zo\u00eb`, raw: true, expected: 400 }
    return { path }
  }
}

/** Non-ASCII characters and spaces escaped, as Node's client requires in a request line. */
export const sendable = (path: string) =>
  path.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character))

/** What the sweep sends a parameter: every value of its type's list, and those it accepts. */
function sweepValues(parameter: FuzzParameter): string[] {
  const accepted = parameter.values ?? []
  switch (parameter.type) {
    case 'Order':
      return DIRECTIONS
    case 'Boolean':
      return [...BOOLEANS, '', '2']
    case 'DateTime':
      return [...DATES, '']
    case 'Int':
    case 'BigInt':
      return INTEGERS
    case 'Decimal':
    case 'Float':
      return [...DECIMALS, ...INTEGERS]
    case 'Between': {
      const bounds =
        parameter.of === 'Int' || parameter.of === 'BigInt' ? INTEGERS : [...DECIMALS, ...INTEGERS]
      return [
        ...BETWEEN_SHAPES.map((shape, index) =>
          shape
            .replace('a', bounds[index % bounds.length] as string)
            .replace('b', bounds[(index * 7) % bounds.length] as string)
        ),
        ...bounds.map((bound) => `${bound}..${bound}`),
      ]
    }
    case 'Iri':
      return [...accepted, ...IRI_SHAPES, ...INTEGERS.slice(0, 12), ...STRINGS.slice(0, 20)]
    default:
      return [...accepted, ...STRINGS]
  }
}

/** The request as a line a reader can replay with curl. */
export function describeRequest(origin: string, request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => ` -H '${name}: ${value}'`)
    .join('')
  const url = `${origin}${request.path}`
  const shown = url.length > 400 ? `${url.slice(0, 400)}… (${url.length} characters)` : url
  return `curl -X ${request.method}${headers} '${shown}'`
}
