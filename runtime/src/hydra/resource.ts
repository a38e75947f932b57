import type { IdKind } from '../contract/keys.js'
import type {
  Resource,
  ResourceDescription,
  ResourceSource,
  ResourceSpec,
} from '../contract/resource.js'
import { exactFields } from '../data/value-tags.js'
import { keySegment, readKeySegment } from './item-key.js'
import { linkWriter } from './links.js'
import { describeMembers } from './member-properties.js'
import type { DescribedMember } from './member-type.js'
import { converterFor } from './member-values.js'

/**
 * A member written straight from a row by code the generator writes for one resource
 * (generator/src/emit/member-writer.ts): the member the description's fields and links give,
 * property for property. Its row is the resource's (`BookRow`), which no caller here can name.
 */
export type MemberWriter = (row: never, base: string) => object

/**
 * Builds a resource's member writer once: the generated one when given (`write`), otherwise a
 * plain loop over its fields. Its key (`id`) and provider are the model source's; its members'
 * type is derived from the description (`DescribedMember`, member-type.ts), whose literal types
 * are kept.
 */
export function defineResource<const D extends ResourceDescription, K extends IdKind>(
  source: ResourceSource<K>,
  described: D,
  write?: MemberWriter
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
    toMember: write
      ? (row, base) => write(row as never, base) as M
      : (row, base) => {
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
    valueFields: source.compiled
      ? new Set(exactFields({ provider: source.provider ?? '', compiled: source.compiled }).keys())
      : undefined,
  }
  describeMembers(resource, spec, iriOf)
  // `spec` holds the description's property filter: its type is the one written (ShapedMemberOf).
  return resource as Resource<M, K> & PropertiesOf<D>
}

/** A description's property filter with its literal type, for ShapedMemberOf (member-type.ts). */
type PropertiesOf<D> = D extends {
  /** The description's property filter. */
  properties: infer P
}
  ? {
      /** The property filter, its literal type kept. */
      properties: P
    }
  : unknown
