/**
 * @module
 * The relations a resource declares embedded (`@property(embed: [...])`, docs/member-shape.md),
 * combined with what a request's property filter selects, under the caller's rules: a relation
 * hidden from the caller is not embedded, a field its model hides is left out of the embedded
 * item (a declared embed cannot be refused with a 400), and a request that names the relation's
 * fields (`properties[author][]=name`) gets those instead of the declared ones.
 */
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

/** The models a resource's declared embeds read: a request's view reads their rules. */
export const declaredModels = (declared: readonly DeclaredEmbed[] | undefined): string[] =>
  (declared ?? []).map((property) => property.embed.model)
