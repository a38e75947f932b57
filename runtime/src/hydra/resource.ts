import { isDecimal } from '../decimal.js'
import { type ScalarFormatter, scalarType } from '../scalar-types.js'
import { isoText } from '../values/iso-text.js'
import { type IdKind, type IdValue, type KeySpec, keySegment, readKeySegment } from './item-key.js'
import { type LinkSpec, linkWriter } from './links.js'
import type { DescribedMember } from './member-type.js'

export type { IdKind, IdValue } from './item-key.js'

/** A field shown in the output, with its Prisma type (which decides how its value is written). */
export interface FieldSpec {
  name: string
  type: string
  list?: boolean
  /** Whether every item has a value (documented as `hydra:required`). Default true. */
  required?: boolean
  /** The field's property IRI (`https://schema.org/name`); default: a term of the API's vocabulary. */
  iri?: string
  /** Documented as the property's `hydra:description`. */
  description?: string
  /** An enum's values: documented as the range's `owl:oneOf`. */
  values?: readonly string[]
  /** A Decimal's scale (`@db.Decimal(10, 2)`): its values are written with that many decimals. */
  scale?: number
  /** A String stored as a database UUID (`@db.Uuid`): a key of it reads UUIDs only. */
  uuid?: boolean
}

export interface ResourceSpec<K extends IdKind> {
  /** The model name: the JSON-LD `@type` and the context's name. */
  name: string
  collectionPath: string
  /** The key naming items (docs/hydra.md#identifiers): one field, or a composite key's fields. */
  id: KeySpec<K>
  fields: readonly FieldSpec[]
  /**
   * Fields its operations order by that it does not show (a link's foreign key, a `@hidden`
   * field): their types make the order a keyset key (hono/order-key.ts).
   */
  unshown?: readonly FieldSpec[] | undefined
  /** Relations to served types, shown as links after the fields (docs/hydra.md#relations). */
  links?: readonly LinkSpec[] | undefined
  /** The type's IRI (`https://schema.org/Book`); default: a term of the API's vocabulary. */
  iri?: string
  /** Documented as the class's `hydra:description`. */
  description?: string
  /** Whether the resource's own responses (items, errors) use the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean
  /**
   * The schema's datasource provider: ids and cursor values are checked against what its columns
   * store. Left out: the rules every supported database shares.
   */
  provider?: string | undefined
  /**
   * The `Cache-Control` of its items (the `cacheHeaders` annotation, docs/annotations.md); none
   * when left out.
   */
  cacheControl?: string | undefined
}

/**
 * The type of a resource's members (`BookMember` is `MemberOf<typeof bookResource>`): what
 * `hydra:member` and the item route give for one row.
 */
export type MemberOf<R> = R extends Resource<infer M, IdKind> ? M : never

/** A resource ready to serve: turns database rows into JSON-LD members of type `M`. */
export interface Resource<M, K extends IdKind = IdKind> extends ResourceSpec<K> {
  /** `base` is the path prefix the app is mounted under ('' at the root). */
  toMember(row: object, base: string): M
  iriOf(row: object, base: string): string
  /**
   * The typed key for a path segment (as `c.req.path` has it), or undefined when it cannot be one
   * (→ 404): not a value of the key's type the database stores (`readColumnValue`), or not
   * written the way the resource writes its IRIs (`/books/01` is not `/books/1`).
   */
  parseId(segment: string): IdValue<K> | undefined
}

type Convert = (value: unknown) => unknown

const formatters: Record<ScalarFormatter, Convert> = {
  dateTime: (value) => (value instanceof Date ? isoText(value) : value),
  integerText: (value) => String(value),
  decimalText: (value) => decimalText(value, undefined),
  base64: (value) => Buffer.from(value as Uint8Array).toString('base64'),
}

/** A Decimal in plain notation: with `scale` decimals (`57.70`), or its shortest form. */
function decimalText(value: unknown, scale: number | undefined): string {
  if (!isDecimal(value)) return String(value)
  return scale === undefined ? value.toFixed() : value.toFixed(scale)
}

function converterFor(field: FieldSpec): Convert | undefined {
  const formatter = scalarType(field.type)?.formatter
  if (!formatter) return undefined
  const scale = field.scale
  const convert: Convert =
    formatter === 'decimalText' && scale !== undefined
      ? (value) => decimalText(value, scale)
      : formatters[formatter]
  const nullable: Convert = (value) =>
    value === null || value === undefined ? null : convert(value)
  return field.list ? (value) => (Array.isArray(value) ? value.map(nullable) : value) : nullable
}

/**
 * What a resource takes from the model source it is read from (data/model-source.ts's
 * `ModelSource`): the key naming its items and the datasource provider.
 */
export interface ResourceSource<K extends IdKind> {
  key: KeySpec<K>
  provider?: string | undefined
}

/** A resource as a generated module describes it: all but what its model source gives. */
export type ResourceDescription = Omit<ResourceSpec<IdKind>, 'id' | 'provider'>

/**
 * Builds a resource's member writer once, so serving a row is a plain loop over its fields. Its
 * key (`id`) and provider are the model source's; its members' type is derived from the
 * description (`DescribedMember`, member-type.ts), whose literal types are kept.
 */
export function defineResource<const D extends ResourceDescription, K extends IdKind>(
  source: ResourceSource<K>,
  described: D
): Resource<DescribedMember<D>, K> {
  type M = DescribedMember<D>
  const spec: ResourceSpec<K> = { ...described, id: source.key, provider: source.provider }
  const fields = spec.fields.map((field) => ({ name: field.name, convert: converterFor(field) }))
  const collectionPath = spec.collectionPath
  const links = (spec.links ?? []).map((link) => ({ name: link.name, write: linkWriter(link) }))
  const iriOf = (row: object, base: string): string =>
    `${base}${collectionPath}/${keySegment(spec.id, row as Record<string, unknown>)}`
  return {
    ...spec,
    iriOf,
    toMember(row, base) {
      const source = row as Record<string, unknown>
      const iri = iriOf(row, base)
      const member: Record<string, unknown> = { '@id': iri, '@type': spec.name }
      for (const { name, convert } of fields) {
        const value = source[name]
        member[name] = convert ? convert(value) : value
      }
      for (const { name, write } of links) member[name] = write(source, iri, base)
      return member as M
    },
    parseId: (segment) => readKeySegment(spec.id, segment, spec.provider),
  }
}
