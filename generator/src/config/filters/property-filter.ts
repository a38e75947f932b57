/**
 * `@filter(properties: ...)` (docs/member-shape.md): API Platform's `PropertyFilter`. `true` offers
 * every shown field and link, and embeds every to-one link to a served model with its shown
 * fields; `{ parameterName: "fields", whitelist: [title, author, "author.name"] }` renames the
 * parameter and offers only what the whitelist names (`author.name`: the link embeddable with
 * that field).
 */

import type { EmbedSpec, PropertySpec, SelectableProperty } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { didYouMean, show } from '../../problems.js'
import type { ServedModel } from '../models/served-model.js'
import type { FieldModel } from '../schema/model.js'
import { delegateName } from '../schema/naming.js'
import type { FilterContext } from './filter-fields.js'

const OPTIONS = ['parameterName', 'whitelist']
const PARAMETER = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** The property filter `value` declares, or undefined when it declares none (or is wrong: reported). */
export function readPropertyFilter(
  value: AnnotationValue,
  source: string,
  context: FilterContext
): PropertySpec | undefined {
  const report = (message: string): undefined => {
    context.report({ source, option: 'properties', message })
  }
  if (value === false) return undefined
  const offered = offeredProperties(context)
  if (value === true) return { parameter: 'properties', properties: offered }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return report(`must be true or { parameterName: "...", whitelist: [...] }, got ${show(value)}`)
  for (const key of Object.keys(value))
    if (!OPTIONS.includes(key))
      return report(
        `has no option "${key}".${didYouMean(key, OPTIONS)} Options: ${OPTIONS.join(', ')}`
      )
  const parameter = value.parameterName ?? 'properties'
  if (typeof parameter !== 'string' || !PARAMETER.test(parameter))
    return report(`parameterName must be a query parameter's name, got ${show(parameter)}`)
  if (value.whitelist === undefined) return { parameter, properties: offered }
  const properties = whitelisted(value.whitelist, offered, report)
  return properties && { parameter, properties }
}

/** Every property a model offers: its shown fields, then its links, to-one links embeddable. */
function offeredProperties(context: FilterContext): SelectableProperty[] {
  const self = context.served.get(context.model.name)
  const fields = (self?.shown ?? []).map((field) => ({ name: field.name }))
  const links = (self?.links ?? []).map((link): SelectableProperty => {
    const named =
      link.field === link.name ? { name: link.name } : { name: link.name, field: link.field }
    const target = context.served.get(link.target)
    if (link.kind !== 'one' || !target) return named
    return { ...named, embed: embedSpecOf(link.target, target, target.shown) }
  })
  return [...fields, ...links]
}

/** What a to-one link to `model` embeds: its key and the given fields of it. */
export function embedSpecOf(
  model: string,
  target: Pick<ServedModel, 'key'>,
  fields: readonly FieldModel[]
): EmbedSpec {
  return {
    model,
    delegate: delegateName(model),
    key: target.key.fields.map((field) => field.name),
    fields: fields.map((field) => ({
      name: field.name,
      ...(field.iri !== undefined ? { iri: field.iri } : {}),
      type: field.type,
      ...(field.isList ? { list: true } : {}),
      ...(field.scale !== undefined ? { scale: field.scale } : {}),
      ...(field.isRequired ? {} : { required: false }),
      ...(field.enumValues ? { values: field.enumValues } : {}),
    })),
  }
}

/** The offered properties a whitelist keeps, or undefined when it names one not offered. */
function whitelisted(
  whitelist: AnnotationValue,
  offered: readonly SelectableProperty[],
  report: (message: string) => undefined
): SelectableProperty[] | undefined {
  if (!Array.isArray(whitelist) || whitelist.some((entry) => typeof entry !== 'string'))
    return report(`whitelist must be a list of property names, got ${show(whitelist)}`)
  const names = offered.map((property) => property.name)
  const kept = new Map<string, SelectableProperty>()
  const embedded = new Map<string, Set<string>>()
  for (const entry of whitelist as string[]) {
    const [name = '', field, ...deeper] = entry.split('.')
    const property = offered.find((candidate) => candidate.name === name)
    const renamed = offered.find((candidate) => candidate.field === name)
    if (!property && renamed)
      return report(
        `whitelist names "${name}", the relation of the link "${renamed.name}": name the property as members show it`
      )
    if (!property)
      return report(
        `whitelist names no property "${name}".${didYouMean(name, names)} Properties: ${names.join(', ')}`
      )
    if (field === undefined) {
      if (!kept.has(name))
        kept.set(name, {
          name: property.name,
          ...(property.field ? { field: property.field } : {}),
        })
      continue
    }
    const fields = property.embed?.fields.map((candidate) => candidate.name) ?? []
    if (!property.embed || deeper.length > 0 || !fields.includes(field))
      return report(
        !property.embed
          ? `whitelist names "${entry}", but "${name}" is not a to-one link to a served model: only those embed`
          : deeper.length > 0
            ? `whitelist names "${entry}": only one relation deep embeds`
            : `whitelist names no field "${field}" of ${property.embed.model}.${didYouMean(field, fields)} Fields: ${fields.join(', ')}`
      )
    embedded.set(name, (embedded.get(name) ?? new Set()).add(field))
    if (!kept.has(name))
      kept.set(name, { name: property.name, ...(property.field ? { field: property.field } : {}) })
  }
  return offered.flatMap((property) => {
    const own = kept.get(property.name)
    if (!own) return []
    const fields = embedded.get(property.name)
    if (!fields || !property.embed) return [own]
    const embed = {
      ...property.embed,
      fields: property.embed.fields.filter((field) => fields.has(field.name)),
    }
    return [{ ...own, embed }]
  })
}
