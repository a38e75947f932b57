/**
 * @module
 * The writers of a resource's member properties, one per field and link in the description's
 * order, as `defineResource` (resource.ts) knows them: what a member shaped by a request or a
 * caller (member-shape.ts) is written from in one pass, row to JSON, without writing the whole
 * member first. A resource made by hand (its own `toMember`) has none.
 */
import type { ResourceSpec } from '../contract/resource.js'
import { linkWriter } from './links.js'
import { converterFor } from './member-values.js'

type Row = Record<string, unknown>

/** Writes one property's JSON value from its row, the member's IRI and the mount's base. */
export type PropertyWrite = (row: Row, iri: string, base: string) => unknown

/** A resource's members as their properties' writers, in the description's order. */
export interface MemberProperties {
  /** The member's `@type`. */
  type: string
  /** The member's `@id`. */
  iriOf(row: object, base: string): string
  /** Its fields', then its links', writers. */
  properties: readonly { name: string; write: PropertyWrite }[]
}

const described = new WeakMap<object, MemberProperties>()

/** The writer of a field's value: as read, or converted (a Date as ISO text…). */
function fieldWrite(name: string, convert: ((value: unknown) => unknown) | undefined) {
  return convert ? (row: Row) => convert(row[name]) : (row: Row) => row[name]
}

/**
 * Records the property writers of `resource`, whose members are written from `spec` property for
 * property (the generic writer, or the generated one, which writes the same).
 */
export function describeMembers(
  resource: object,
  spec: Pick<ResourceSpec<never>, 'name' | 'fields' | 'links'>,
  iriOf: (row: object, base: string) => string
): void {
  const properties = [
    ...spec.fields.map((field) => ({
      name: field.name,
      write: fieldWrite(field.name, converterFor(field)),
    })),
    ...(spec.links ?? []).map((link) => ({ name: link.name, write: linkWriter(link) })),
  ]
  described.set(resource, { type: spec.name, iriOf, properties })
}

/** The property writers of a resource `defineResource` made; undefined for one made by hand. */
export const memberPropertiesOf = (resource: object): MemberProperties | undefined =>
  described.get(resource)
