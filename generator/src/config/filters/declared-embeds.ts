/**
 * `@property(embed: [name, country])` on a relation (docs/member-shape.md): the resource's members
 * and items show the related item with those fields in place of its IRI, without a request
 * parameter (what API Platform does with serialization groups); a to-many relation, capped by
 * `first`, the first page of its sub-collection. Checked against the related model: a relation to
 * a served model, shown, each field one its target serves, `first` given to a to-many one only.
 */
import type { DeclaredEmbed } from '@prisma-hydra/runtime/defaults'
import { didYouMean, type Problem, reporter } from '../../problems.js'
import type { Catalog, CatalogModel } from '../models/catalog.js'
import type { ServedModel } from '../models/served-model.js'
import type { GlobalConfig } from '../paging/global.js'
import { type EmbedDeclaration, MAX_EMBEDDED_FIRST } from '../schema/embed-declarations.js'
import type { FieldModel, LinkModel } from '../schema/model.js'
import { checkEmbedIndex } from './embed-index.js'
import { embeddedPage } from './embedded-page.js'
import { embedSpecOf } from './property-filter.js'

/**
 * The relations `entry` declares embedded, in the order of its links, each line of a field in its
 * order (with the operations it is limited to); problems reported, and a capped to-many relation
 * without an index to read it by warned of (embed-index.ts).
 */
export function declaredEmbeds(
  entry: CatalogModel,
  served: ServedModel,
  catalog: Pick<Catalog, 'served' | 'global' | 'datamodel' | 'provider'>,
  problems: Problem[]
): DeclaredEmbed[] {
  const { served: targets, global } = catalog
  return entry.fields.flatMap(({ field, embeds, hidden }) => {
    if (!embeds) return []
    const at = reporter(problems, `Model "${entry.model.name}", field "${field.name}"`)
    const report = (message: string): [] => {
      at({ source: '@property', option: 'embed', message })
      return []
    }
    if (hidden)
      return report(
        'embeds a hidden relation: a relation that is @hidden is no property to show its item in; remove @hidden or embed'
      )
    const link = served.links.find((candidate) => candidate.field === field.name)
    const target = link && targets.get(link.target)
    if (!link || !target)
      return report(
        `embeds a relation to ${field.type}, which is not served (no @pagination with a key): only a served model's items embed, at their IRIs`
      )
    const lines = embeds.flatMap((declaration) =>
      declaredEmbed(declaration, { link, target, path: served.collectionPath, global }, report)
    )
    if (lines.some((line) => 'first' in line.embed)) {
      const keyFields = target.key.fields.map((key) => key.name)
      const relation = { target: link.target, condition: link.condition, keyFields }
      checkEmbedIndex(relation, catalog.datamodel, catalog.provider, at)
    }
    return lines
  })
}

/** Where a line is declared: its link, the link's target, the model's path, the global config. */
interface DeclarationSite {
  link: LinkModel
  target: ServedModel
  path: string
  global: GlobalConfig
}

/** One line's embed of `link`, or none (reported) when it cannot be. */
function declaredEmbed(
  { fields: names, first, operations }: EmbedDeclaration,
  { link, target, path, global }: DeclarationSite,
  report: (message: string) => []
): DeclaredEmbed[] {
  if (link.kind === 'many' && first === undefined)
    return report(
      `embeds a to-many relation without first: say how many of its related items to show (embed: [...], first: 3, at most ${MAX_EMBEDDED_FIRST}); the rest page at its sub-collection (${path}/{id}/${link.name})`
    )
  if (link.kind === 'one' && first !== undefined)
    return report(
      'gives first to a to-one relation: first caps a to-many relation; a to-one relation embeds its one item'
    )
  const fields = embeddedFields(names, link.target, target, report)
  // A refused first was reported where it was read: the line embeds nothing.
  if (!fields || first === null) return []
  const named = link.field === link.name ? {} : { field: link.field }
  const spec = embedSpecOf(link.target, target, fields)
  // A to-many relation's first page is read apart, one member's at a time: by the condition its
  // sub-collection reads. Its view names the sub-collection's page it is.
  const { condition } = link
  const embed =
    first === undefined
      ? spec
      : {
          ...spec,
          first,
          ...(condition ? { condition } : {}),
          page: embeddedPage(target, first, global),
        }
  return [{ name: link.name, ...named, embed, ...(operations ? { operations } : {}) }]
}

/** The target's fields `embed` names, in the order it names them; undefined when one is not served. */
function embeddedFields(
  embed: readonly string[],
  model: string,
  target: ServedModel,
  report: (message: string) => []
): FieldModel[] | undefined {
  const shown = target.shown.map((field) => field.name)
  const fields: FieldModel[] = []
  for (const name of embed) {
    const field = target.shown.find((candidate) => candidate.name === name)
    if (field && !fields.includes(field)) {
      fields.push(field)
      continue
    }
    report(
      field
        ? `names "${name}" twice`
        : target.hidden.has(name)
          ? `names "${name}", which ${model} hides (@hidden): a hidden field is never served, embedded or not`
          : target.links.some((link) => link.name === name)
            ? `names "${name}", a relation of ${model}: an embedded item shows fields, one relation deep`
            : target.foreignKeys.has(name)
              ? `names "${name}", the foreign key of ${model}'s relation "${target.foreignKeys.get(name)}": it is no field ${model} serves`
              : `names no field "${name}" of ${model}.${didYouMean(name, shown)} Fields: ${shown.join(', ')}`
    )
    return undefined
  }
  return fields
}
