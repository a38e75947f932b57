import type { IdKind } from '../contract/keys.js'
import type {
  FieldSpec,
  Resource,
  ResourceDescription,
  ResourceSource,
  ResourceSpec,
} from '../contract/resource.js'
import { isDecimal } from '../decimal.js'
import { type ScalarFormatter, scalarType } from '../scalar-types.js'
import { isoText } from '../values/iso-text.js'
import { keySegment, readKeySegment } from './item-key.js'
import { linkWriter } from './links.js'
import type { DescribedMember } from './member-type.js'

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

/** The writer of a field's values (a Date as ISO text, a Decimal as plain text…); none: as read. */
export function converterFor(
  field: Pick<FieldSpec, 'type' | 'list' | 'scale'>
): Convert | undefined {
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
 * Builds a resource's member writer once, so serving a row is a plain loop over its fields. Its
 * key (`id`) and provider are the model source's; its members' type is derived from the
 * description (`DescribedMember`, member-type.ts), whose literal types are kept.
 */
export function defineResource<const D extends ResourceDescription, K extends IdKind>(
  source: ResourceSource<K>,
  described: D
): Resource<DescribedMember<D>, K> & PropertiesOf<D> {
  type M = DescribedMember<D>
  const spec: ResourceSpec<K> = { ...described, id: source.key, provider: source.provider }
  const fields = spec.fields.map((field) => ({ name: field.name, convert: converterFor(field) }))
  const collectionPath = spec.collectionPath
  const links = (spec.links ?? []).map((link) => ({ name: link.name, write: linkWriter(link) }))
  const iriOf = (row: object, base: string): string =>
    `${base}${collectionPath}/${keySegment(spec.id, row as Record<string, unknown>)}`
  const resource: Resource<M, K> = {
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
  // `spec` holds the description's property filter: its type is the one written (ShapedMemberOf).
  return resource as Resource<M, K> & PropertiesOf<D>
}

/** A description's property filter with its literal type, for ShapedMemberOf (member-type.ts). */
type PropertiesOf<D> = D extends { properties: infer P } ? { properties: P } : unknown
