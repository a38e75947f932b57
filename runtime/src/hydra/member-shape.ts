/**
 * @module
 * The shape of a request's members, decided once per request (docs/member-shape.md): from the
 * operation (its resource, the relations it declares embedded, the fields its keyset reads), the
 * request's property filter (`properties[]`, read strictly by filters/properties.ts) and the
 * caller's view (the fields its rules hide, docs/security.md): the properties each member holds,
 * the relations embedded and the fields each shows, the columns the rows need not read, and the
 * writer that writes each member once, from its row to its JSON object.
 */
import { type KeySpec, keyFields } from '../contract/keys.js'
import type { DeclaredEmbed, PropertySpec } from '../contract/properties.js'
import type { FieldSpec, LinkSpec } from '../contract/resource.js'
import { queryNames } from '../filters/caller-spec.js'
import {
  callerProperties,
  type EmbedRequest,
  type PropertySelection,
  readProperties,
  relationOf,
  shownOnRow,
} from '../filters/properties.js'
import type { QueryMap } from '../iri/query-string.js'
import { type EmbedWrite, embeddedWriter } from './embedded-writer.js'
import { memberPropertiesOf, type PropertyWrite } from './member-properties.js'

type Row = Record<string, unknown>

/** What the caller may not see: the resource's fields, and each related model's. */
export interface ShapeHiding {
  hidden: ReadonlySet<string>
  hiddenOf(model: string): ReadonlySet<string>
  /** The fields shown on some rows only: a row names those it shows (SHOWN_ON_ROW). */
  shownWhere?: ReadonlyMap<string, unknown> | undefined
  /** The same of `model`, whose rows the members embed. */
  shownWhereOf?(model: string): ReadonlyMap<string, unknown>
}

/** What a member's shape reads of its resource. */
export interface ShapedResource<M> {
  id: KeySpec
  fields: readonly Pick<FieldSpec, 'name'>[]
  links?: readonly LinkSpec[] | undefined
  toMember(row: object, base: string): M
}

/** What one request's members are shaped by. */
export interface ShapeRequest<M> {
  resource: ShapedResource<M>
  /** The request's own selection (`properties[]`); undefined: every property. */
  requested: PropertySelection | undefined
  /** The relations the operation declares embedded (filters/declared-embeds.ts). */
  declared: readonly DeclaredEmbed[] | undefined
  /** The caller's view; undefined: a source given by hand, read by no caller. */
  hiding: ShapeHiding | undefined
  /** The fields the rows are ordered by in keysets (a cursor's, streamed batches'): always read. */
  keys?: readonly (readonly { field: string }[] | undefined)[] | undefined
  /** The path prefix the app is mounted under. */
  base: string
  /** Whether an embedded collection's keys carry the `hydra:` prefix. */
  hydraPrefix: boolean
}

/** The shape of one request's members. */
export interface MemberShape<M> {
  /** What the rows are read with: the properties shown and the relations embedded. */
  selection: PropertySelection | undefined
  /** The columns the rows need not read; undefined: every one. */
  omitted: ReadonlySet<string> | undefined
  /** Writes a row's member, once. */
  write(row: object): M
}

const NONE: ReadonlySet<string> = new Set()

/** The shape of a request's members (docs/member-shape.md). */
export function memberShape<M>(request: ShapeRequest<M>): MemberShape<M> {
  const { resource, hiding } = request
  const selection = withDeclaredEmbeds(request.requested, request.declared, hiding)
  return {
    selection,
    omitted: omittedColumns(resource, selection, request.keys ?? []),
    write: memberWriter(request, selection, hiding),
  }
}

/** What the caller may not see, and whether rules apply to it at all. */
export interface CallerHiding extends ShapeHiding {
  personal: boolean
}

/** What an item's shape reads of its resource: its property filter and `hydra:` prefix too. */
interface ItemResource<M> extends ShapedResource<M> {
  properties?: PropertySpec | undefined
  hydraPrefix?: boolean | undefined
}

/**
 * The shape of an item's member: the request's property filter, read as the caller may use it (a
 * field its rules hide, of the item or of a relation it embeds, is not offered: a 400 before any
 * query), with the relations the item declares embedded.
 */
export function itemShape<M>(
  resource: ItemResource<M>,
  query: QueryMap,
  view: CallerHiding,
  declared: readonly DeclaredEmbed[] | undefined,
  base: string
): MemberShape<M> {
  const spec = callerItemProperties(resource.properties, view, resource.links)
  return memberShape({
    resource,
    requested: spec && readProperties(query, spec),
    declared,
    hiding: view,
    base,
    hydraPrefix: resource.hydraPrefix !== false,
  })
}

/**
 * An item's property filter as the caller may use it (docs/security.md): without the resource's
 * fields the caller may not see, nor the fields of an embedded model that model's rules hide.
 */
function callerItemProperties(
  spec: PropertySpec | undefined,
  view: CallerHiding,
  links: readonly LinkSpec[] | undefined
): PropertySpec | undefined {
  if (!spec || !view.personal) return spec
  const hidden = new Set(queryNames(view.hidden, links))
  for (const property of spec.properties)
    if (property.embed)
      for (const field of view.hiddenOf(property.embed.model))
        hidden.add(`${relationOf(property)}.${field}`)
  return hidden.size === 0 ? spec : callerProperties(spec, hidden)
}

/**
 * The selection a request reads and writes with: the request's own (undefined: every property)
 * with each declared embed of a relation it shows and does not embed itself, unless the caller
 * may not see the relation; a field its model hides from the caller is left out of the item (a
 * declared embed cannot be refused with a 400). Undefined when neither selects nor embeds.
 */
export function withDeclaredEmbeds(
  requested: PropertySelection | undefined,
  declared: readonly DeclaredEmbed[] | undefined,
  hiding: ShapeHiding | undefined
): PropertySelection | undefined {
  if (!declared || declared.length === 0) return requested
  const embeds = new Map<string, EmbedRequest>(requested?.embeds)
  for (const property of declared) {
    const { name, embed } = property
    if (embeds.has(name) || (requested?.names && !requested.names.has(name))) continue
    if (hiding?.hidden.has(name)) continue
    const hidden = hiding?.hiddenOf(embed.model)
    const fields = embed.fields.map((field) => field.name).filter((field) => !hidden?.has(field))
    embeds.set(name, { property, fields })
  }
  if (!requested && embeds.size === 0) return undefined
  return { names: requested?.names, embeds }
}

/** The column (or relation) a to-one link's value is read from. */
function sourceOf(link: LinkSpec): string {
  const from = link.from ?? link.name
  return typeof from === 'string' ? from : from[0]
}

/**
 * The columns a page of `selection` leaves unread, undefined when it shows every property: the
 * fields and to-one links it leaves out, but the items' key (every `@id`) and the fields of
 * `keys`. Only what the resource knows as a field or a link's source is ever left out.
 */
function omittedColumns(
  resource: ShapedResource<unknown>,
  selection: PropertySelection | undefined,
  keys: readonly (readonly { field: string }[] | undefined)[]
): ReadonlySet<string> | undefined {
  const names = selection?.names
  if (!names) return undefined
  const kept = new Set<string>(keyFields(resource.id).map((field) => field.name))
  for (const key of keys) for (const { field } of key ?? []) kept.add(field)
  const omitted = new Set<string>()
  for (const { name } of resource.fields) if (!names.has(name)) omitted.add(name)
  for (const link of resource.links ?? [])
    if (link.kind === 'one' && !names.has(link.name)) omitted.add(sourceOf(link))
  // A column a shown link reads is read, whatever else leaves it out.
  for (const link of resource.links ?? [])
    if (link.kind === 'one' && names.has(link.name)) kept.add(sourceOf(link))
  for (const column of kept) omitted.delete(column)
  return omitted.size === 0 ? undefined : omitted
}

/**
 * The writer of the request's members: the resource's own where the shape is every property as
 * it is; otherwise, in one pass, `@id`, `@type` and each property shown (neither hidden from the
 * caller nor left out by the selection) in the resource's order, an embedded relation in place
 * of its IRI.
 */
function memberWriter<M>(
  request: ShapeRequest<M>,
  selection: PropertySelection | undefined,
  hiding: ShapeHiding | undefined
): (row: object) => M {
  const { resource, base, hydraPrefix } = request
  const hidden = hiding?.hidden ?? NONE
  // Fields shown on some rows only: each written where its row is marked to show it.
  const someRows = new Set(hiding?.shownWhere?.keys() ?? [])
  if (!selection && hidden.size === 0 && someRows.size === 0)
    return (row) => resource.toMember(row, base)
  const embeds = new Map<string, EmbedWrite>()
  for (const [name, embed] of selection?.embeds ?? []) {
    const related = hiding?.shownWhereOf?.(embed.property.embed.model)
    const some = related && related.size > 0 ? new Set(related.keys()) : undefined
    embeds.set(name, embeddedWriter(embed, base, resource.links, hydraPrefix, some))
  }
  const names = selection?.names
  const shown = (name: string) => !hidden.has(name) && (!names || names.has(name))
  const described = memberPropertiesOf(resource)
  if (!described)
    return pickedWriter(
      resource,
      base,
      (row, name) => shown(name) && shownOnRow(row, name, someRows),
      embeds
    )
  const properties = described.properties.flatMap(({ name, write }) => {
    if (!shown(name)) return []
    const embed = embeds.get(name)
    const value: PropertyWrite = embed ? (row, iri) => embed(row, write(row, iri, base)) : write
    return [{ name, write: value }]
  })
  const { iriOf, type } = described
  return (row) => {
    const iri = iriOf(row, base)
    const member: Row = { '@id': iri, '@type': type }
    for (const { name, write } of properties)
      if (shownOnRow(row, name, someRows)) member[name] = write(row as Row, iri, base)
    return member as M
  }
}

/**
 * The members of a resource made by hand, whose properties are what its own `toMember` writes:
 * those shown picked from its member, an embedded relation in place of its IRI.
 */
function pickedWriter<M>(
  resource: ShapedResource<M>,
  base: string,
  shown: (row: object, name: string) => boolean,
  embeds: ReadonlyMap<string, EmbedWrite>
): (row: object) => M {
  return (row) => {
    const member = resource.toMember(row, base) as Row
    const shaped: Row = { '@id': member['@id'], '@type': member['@type'] }
    for (const name of Object.keys(member)) {
      if (name === '@id' || name === '@type' || !shown(row, name)) continue
      const embed = embeds.get(name)
      shaped[name] = embed ? embed(row as Row, member[name]) : member[name]
    }
    return shaped as M
  }
}
