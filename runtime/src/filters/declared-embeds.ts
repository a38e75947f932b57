/**
 * @module
 * The relations a resource declares embedded (`@property(embed: [...])`, docs/member-shape.md),
 * combined with what a request's property filter selects, under the caller's rules: a relation
 * hidden from the caller is not embedded, a field its model hides is left out of the embedded
 * item (a declared embed cannot be refused with a 400), and a request that names the relation's
 * fields (`properties[author][]=name`) gets those instead of the declared ones. A declaration
 * limited to some operations (`operations: [item]`) is one of those operations' alone; one
 * without `operations` is every other operation's.
 */
import { operationName } from '../contract/operations.js'
import type { DeclaredEmbed } from '../contract/properties.js'
import type { EmbedRequest, PropertySelection } from './properties.js'

/** What the caller may not see: the resource's fields, and each related model's. */
export interface EmbedHiding {
  hidden: ReadonlySet<string>
  hiddenOf(model: string): ReadonlySet<string>
}

/**
 * The selection a request reads and writes with: the request's own (undefined: every property)
 * with each declared embed of a relation it shows and does not embed itself. Undefined when
 * neither selects nor embeds anything.
 */
export function withDeclaredEmbeds(
  requested: PropertySelection | undefined,
  declared: readonly DeclaredEmbed[] | undefined,
  hiding: EmbedHiding | undefined
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

/**
 * The declarations of one operation (`collection`, an extra operation's name, `item`, a
 * sub-collection as `Book.loans`): those naming it, and for every other relation the one that
 * names no operation, in the resource's order.
 */
export function declaredFor(
  declared: readonly DeclaredEmbed[] | undefined,
  operation: string
): readonly DeclaredEmbed[] | undefined {
  if (!declared || declared.length === 0) return undefined
  const named = new Set(
    declared.flatMap((property) =>
      property.operations?.includes(operation) ? [property.name] : []
    )
  )
  return declared.filter((property) =>
    property.operations ? property.operations.includes(operation) : !named.has(property.name)
  )
}

/**
 * The name a sub-collection's declared embeds are chosen by: its parent model and link
 * (`Book.loans`); the collection operation's it is served as when the parent names no link.
 */
export const subCollectionName = (
  parent: { name: string; link?: string | undefined } | undefined,
  operation: { name?: string | undefined }
): string =>
  parent?.link !== undefined ? `${parent.name}.${parent.link}` : operationName(operation)

/** The models a resource's declared embeds read: a request's view reads their rules. */
export const declaredModels = (declared: readonly DeclaredEmbed[] | undefined): string[] =>
  (declared ?? []).map((property) => property.embed.model)

/**
 * The models whose first page a resource's declared embeds show (to-many relations, `first`):
 * a request's view reads the rules their sub-collections are served by.
 */
export const declaredPages = (declared: readonly DeclaredEmbed[] | undefined): string[] =>
  (declared ?? []).flatMap((property) =>
    property.embed.first === undefined ? [] : [property.embed.model]
  )
