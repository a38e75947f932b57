/**
 * @module
 * The relations a resource declares embedded (`@property(embed: [...])`, docs/member-shape.md)
 * for each of its operations: a declaration limited to some operations (`operations: [item]`) is
 * one of those operations' alone; one without `operations` is every other operation's. A
 * request's members combine them with its own selection (hydra/member-shape.ts).
 */
import { operationName } from '../contract/operations.js'
import type { DeclaredEmbed } from '../contract/properties.js'

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
