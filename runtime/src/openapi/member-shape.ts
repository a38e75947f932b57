/**
 * @module
 * The member schema of a type whose collections offer a property filter (docs/member-shape.md):
 * a member then holds only the properties a request selects, and a to-one link it may embed is
 * either its IRI or the embedded item (its context, `@id`, `@type` and any of the fields offered).
 */
import type { DeclaredEmbed, EmbedSpec } from '../contract/properties.js'
import { declaredFor } from '../filters/declared-embeds.js'
import type { DocumentedType } from '../hydra/documented-types.js'
import { nullable, type Schema, scalarSchema } from './schemas.js'

/** What a type's property filters offer: whether any, and each link they may embed. */
export interface MemberShape {
  embeds: ReadonlyMap<string, EmbedSpec>
}

/**
 * The shape a type's collections and items offer, or undefined when none has a property filter.
 */
export function memberShapeOf(
  type: Pick<DocumentedType, 'collections' | 'properties'>
): MemberShape | undefined {
  const filters = [
    ...type.collections.flatMap((collection) => collection.query?.properties ?? []),
    ...(type.properties ? [type.properties] : []),
  ]
  if (filters.length === 0) return undefined
  const embeds = new Map<string, EmbedSpec>()
  for (const filter of filters)
    for (const { name, embed } of filter.properties) {
      if (!embed) continue
      // Operations may offer different fields of one link: the schema takes them all.
      const known = embeds.get(name)
      const fields = [...(known?.fields ?? [])]
      for (const field of embed.fields)
        if (!fields.some((entry) => entry.name === field.name)) fields.push(field)
      embeds.set(name, { ...embed, fields })
    }
  return { embeds }
}

/** The embedded item of a link: its `@id` and `@type`, and the fields a request asks. */
function embeddedSchema(embed: EmbedSpec): Schema {
  const properties: Record<string, Schema> = {
    '@id': { type: 'string', format: 'uri-reference' },
    '@type': { const: embed.model },
  }
  for (const field of embed.fields) {
    const value = scalarSchema(field.type, field.values)
    const schema = field.list ? { type: 'array', items: value } : value
    properties[field.name] = field.required === false ? nullable(schema) : schema
  }
  return {
    type: 'object',
    description: `The related ${embed.model}, embedded with the fields the request selects.`,
    required: ['@id', '@type'],
    properties,
    additionalProperties: false,
  }
}

/**
 * A member or item schema (schemas.ts) as a type with a property filter serves it: only
 * `@context` (an item's), `@id` and `@type` required, each embeddable link its IRI or the
 * embedded item.
 */
export function shapedMemberSchema(member: Schema, shape: MemberShape): Schema {
  const properties = { ...(member.properties as Record<string, Schema>) }
  for (const [name, embed] of shape.embeds) {
    const link = properties[name]
    if (link) properties[name] = { anyOf: [link, embeddedSchema(embed)] }
  }
  const required = ['@context', '@id', '@type'].filter((name) => name in properties)
  return { ...member, required, properties }
}

/**
 * The embedded collection of a to-many link declared embedded (hydra/embedded-collection.ts): the
 * sub-collection's `@id`, at most `first` related items, and a partial view when more exist; its
 * keys spelled as the type's pages spell them (`prefixes`: with `hydra:`, without, or either).
 */
function embeddedCollectionSchema(embed: EmbedSpec, prefixes: readonly boolean[]): Schema {
  const styles = prefixes.map((prefix) => {
    const term = (name: string) => (prefix ? `hydra:${name}` : name)
    return {
      type: 'object',
      required: ['@id', '@type', term('member')],
      properties: {
        '@id': { type: 'string', format: 'uri-reference' },
        '@type': { const: term('Collection') },
        [term('member')]: { type: 'array', maxItems: embed.first, items: embeddedSchema(embed) },
        [term('view')]: {
          type: 'object',
          description:
            "Present when more related items exist than are shown: the sub-collection's page they are, at its @id.",
          required: ['@id', '@type'],
          properties: {
            '@id': { type: 'string', format: 'uri-reference' },
            '@type': { const: term('PartialCollectionView') },
            [term('first')]: { type: 'string', format: 'uri-reference' },
            [term('next')]: { type: 'string', format: 'uri-reference' },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    }
  })
  return styles.length === 1 ? (styles[0] as Schema) : { anyOf: styles }
}

/**
 * A member or item schema with each link the type declares embedded: the related item with the
 * declared fields (a field hidden from the caller left out), or its IRI when the caller may not
 * see the related row; a to-many link the first of its related items (`prefixes`: how the type's
 * pages spell Hydra's keys). A link declared more than once (for different operations) is any of
 * the declared shapes.
 */
export function declaredMemberSchema(
  member: Schema,
  embedded: readonly DeclaredEmbed[] | undefined,
  prefixes: readonly boolean[] = [true]
): Schema {
  if (!embedded || embedded.length === 0) return member
  const properties = { ...(member.properties as Record<string, Schema>) }
  for (const { name, embed, operations } of embedded) {
    const link = properties[name]
    if (!link) continue
    const many = embed.first !== undefined
    const value = many ? embeddedCollectionSchema(embed, prefixes) : embeddedSchema(embed)
    // A declaration limited to some operations says which: the others show another choice.
    const where = operations ? ` Embedded so by ${operations.join(', ')} only.` : ''
    const description = many
      ? `The first ${embed.first} related ${embed.model} items of the sub-collection at its @id, in their key order, each with the fields the resource declares (a field hidden from the caller left out), a partial view when more exist; the sub-collection's IRI when the caller may not see ${embed.model}.${where}`
      : `The related ${embed.model}, embedded with the fields the resource declares (a field hidden from the caller left out), or its IRI when the caller may not see it.${where}`
    // Its IRI (or null), or the item a selection embeds: one choice more.
    const choices = Array.isArray(link.anyOf) ? (link.anyOf as Schema[]) : [link]
    properties[name] = { anyOf: [...choices, { ...value, description }] }
  }
  return { ...member, properties }
}

/**
 * The declarations a type's member schema describes: those of its collection operations and the
 * sub-collections that list it (every one but those of its item alone), which one schema serves.
 */
export const memberDeclarations = (
  embedded: readonly DeclaredEmbed[] | undefined
): DeclaredEmbed[] | undefined =>
  embedded?.filter(
    ({ operations }) => !operations || operations.some((operation) => operation !== 'item')
  )

/** The declarations of a type's items, which its item schema describes alone. */
export function itemDeclarations(
  embedded: readonly DeclaredEmbed[] | undefined
): DeclaredEmbed[] | undefined {
  return declaredFor(embedded, 'item')?.map(({ name, field, embed }) => ({
    name,
    ...(field !== undefined ? { field } : {}),
    embed,
  }))
}
