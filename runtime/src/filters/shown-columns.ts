/**
 * @module
 * The columns a page need not read (docs/member-shape.md): where a request names the properties
 * it shows (`properties[]=title`), the fields and to-one links it leaves out, but for the key of
 * its items (every `@id`) and the fields its keyset orders by (cursor links, streamed batches).
 * Only what the resource knows as a field or a link's source is ever left out.
 */
import { type KeySpec, keyFields } from '../contract/keys.js'
import type { LinkSpec } from '../contract/resource.js'
import type { PropertySelection } from './properties.js'

/** What the columns of a resource's rows show. */
export interface ShownResource {
  id: KeySpec
  fields: readonly { name: string }[]
  links?: readonly LinkSpec[] | undefined
}

/** The column (or relation) a to-one link's value is read from. */
function sourceOf(link: LinkSpec): string {
  const from = link.from ?? link.name
  return typeof from === 'string' ? from : from[0]
}

/**
 * The model's columns a page of `selection` leaves unread; undefined when it shows every property.
 * `keys` are the fields its keyset orders by (the cursor's, the order key of streamed batches).
 */
export function omittedColumns(
  resource: ShownResource,
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
