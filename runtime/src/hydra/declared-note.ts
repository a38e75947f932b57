/**
 * @module
 * The Hydra documentation's description of a relation declared embedded (docs/member-shape.md,
 * "Declared embeds"): what its value shows, by operation when declarations are limited to some.
 */
import type { DeclaredEmbed } from '../contract/properties.js'
import type { DocumentedType } from './documented-types.js'

/**
 * A link the type declares embedded: its description names the fields its value shows, and when
 * declarations are limited to some operations, which operations show which.
 */
export function declaredNote(type: DocumentedType, name: string): { description?: string } {
  const declared = (type.embedded ?? []).filter((property) => property.name === name)
  const [only] = declared
  if (!only) return {}
  if (declared.length === 1 && !only.operations)
    return { description: `Embedded: ${embeddedShape(only.embed)}.` }
  // The operations named first, then the declaration of every other operation, if any.
  const ordered = [...declared].sort((a, b) => Number(!a.operations) - Number(!b.operations))
  const parts = ordered.map(
    (property) =>
      `${property.operations ? `on ${property.operations.join(', ')}` : 'on every other operation'}, ${embeddedShape(property.embed)}`
  )
  const iri = only.embed.first === undefined ? 'its IRI' : "the sub-collection's IRI"
  const elsewhere = declared.some((property) => !property.operations)
    ? ''
    : ` Every other operation shows ${iri}.`
  return {
    description: `Embedded by operation (collection, an extra operation, item, a sub-collection as Parent.link): ${parts.join('; ')}.${elsewhere}`,
  }
}

/** What a declared embed shows, as a sentence's clause. */
function embeddedShape({ fields: shown, first, model }: DeclaredEmbed['embed']): string {
  const fields = shown.map((field) => field.name).join(', ')
  if (first !== undefined)
    return `the first page of the sub-collection at its @id, a hydra:Collection holding at most ${first} related ${model} items in their key order, each with its @id, @type and ${fields || 'no other field'} (a field hidden from the caller left out); a hydra:view of type hydra:PartialCollectionView, its @id the sub-collection's page of those items, when more exist; the sub-collection's IRI when the caller may not see ${model}`
  return `the related ${model} with its @id, @type and ${fields || 'no other field'} (a field hidden from the caller left out); its IRI when the caller may not see it`
}
