import type { DMMF } from '@prisma/generator-helper'
import type { AnnotationValue } from '../../annotations/parse.js'
import { type Problem, type Report, reporter, show } from '../../problems.js'
import { FIELD_ANNOTATIONS, readAnnotations, readExtraArgs, readIri } from './annotation-args.js'
import { type EmbedDeclaration, readEmbedDeclarations } from './embed-declarations.js'
import type { FieldModel } from './model.js'

/** What a field's own annotations say: whether it is hidden, its property IRI and (relations) name. */
export interface FieldAnnotations {
  readonly field: DMMF.Field
  readonly iri: string | undefined
  /** `@property(name: ...)`: the property name of a relation served as a link. */
  readonly name: string | undefined
  readonly hidden: boolean
  /** Whether it carries `@property`: declared a property of the API. */
  readonly property: boolean
  /**
   * `@property(embed: [...])` lines: the relation shown embedded with these fields of its target,
   * each line for its operations (schema/embed-declarations.ts).
   */
  readonly embeds?: readonly EmbedDeclaration[] | undefined
}

/** The options of `@property`. */
const PROPERTY_KEYS = ['iri', 'name', 'embed', 'first', 'operations']

/** A property name that is a JSON-LD term and a path segment as it is: no escaping anywhere. */
const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** Reads `@hidden` and `@property(...)` of every field of a model, with its misuses. */
export function readFieldAnnotations(model: DMMF.Model): {
  fields: readonly FieldAnnotations[]
  problems: readonly Problem[]
} {
  const problems: Problem[] = []
  const fields = model.fields.map((field) => {
    const fieldReport = reporter(problems, `Model "${model.name}", field "${field.name}"`)
    const fieldAnnotations = readAnnotations(field.documentation, FIELD_ANNOTATIONS, fieldReport)
    for (const annotation of fieldAnnotations) {
      if (annotation.name === 'hidden' && annotation.args.length > 0) {
        fieldReport({ source: '@hidden', message: 'takes no options; write /// @hidden' })
      }
    }
    const property = fieldAnnotations.filter((annotation) => annotation.name === 'property')
    const lines = property.map((annotation) =>
      readExtraArgs(annotation, PROPERTY_KEYS, fieldReport)
    )
    const propertyArgs = mergedLines(lines, fieldReport)
    const iri = readIri(propertyArgs.get('iri'), '@property', fieldReport)
    const embeds = readEmbedDeclarations(lines, field.kind === 'object', fieldReport)
    return {
      field,
      iri,
      name: readPropertyName(propertyArgs.get('name'), field, fieldReport),
      hidden: fieldAnnotations.some((annotation) => annotation.name === 'hidden'),
      property: property.length > 0,
      ...(embeds.length > 0 ? { embeds } : {}),
    }
  })
  return { fields, problems }
}

/**
 * The options of a field's `@property` lines but its embeds: one line, or several each declaring
 * an embed (for their operations), `iri` and `name` given on one of them at most.
 */
function mergedLines(
  lines: readonly Map<string, AnnotationValue>[],
  report: Report
): Map<string, AnnotationValue> {
  if (lines.length <= 1) return lines[0] ?? new Map()
  if (lines.some((args) => !args.has('embed'))) {
    report({
      source: '@property',
      message:
        'is given more than once; merge the options into one @property(...) (several lines each declare an embed for their operations: @property(embed: [...], operations: [...]))',
    })
  }
  const merged = new Map<string, AnnotationValue>()
  for (const option of ['iri', 'name']) {
    const given = lines.flatMap((args) => (args.has(option) ? [args.get(option)] : []))
    if (given.length > 1)
      report({
        source: '@property',
        option,
        message: 'is given on more than one @property line; give it once',
      })
    const [value] = given
    if (value !== undefined) merged.set(option, value)
  }
  return merged
}

/**
 * `@property(name: ...)`: relations only, whose property name is the API's alone. A scalar field
 * is renamed in the schema, where Prisma's `@map` keeps its column: one name for the field in
 * queries, filters, orders and responses.
 */
function readPropertyName(
  value: AnnotationValue | undefined,
  field: DMMF.Field,
  report: Report
): string | undefined {
  if (value === undefined) return undefined
  if (field.kind !== 'object') {
    report({
      source: '@property',
      option: 'name',
      message:
        'renames relations only; rename a scalar field in the schema (@map keeps the column name)',
    })
    return undefined
  }
  if (typeof value !== 'string' || !PROPERTY_NAME.test(value)) {
    report({
      source: '@property',
      option: 'name',
      message: `must be a name of letters, digits, _ and - starting with a letter or _ (a JSON key and a path segment as it is), got ${show(value)}`,
    })
    return undefined
  }
  return value
}

/** A scalar or enum field of the DMMF as the emitter needs it. */
export function toFieldModel(
  field: DMMF.Field,
  datamodel: DMMF.Datamodel,
  iri: string | undefined
): FieldModel {
  const scale = decimalScale(field)
  const enumValues =
    field.kind === 'enum'
      ? (datamodel.enums.find((candidate) => candidate.name === field.type)?.values ?? [])
      : undefined
  return {
    name: field.name,
    type: field.type,
    kind: field.kind === 'enum' ? 'enum' : 'scalar',
    isList: field.isList,
    isRequired: field.isRequired,
    uuid: field.nativeType?.[0] === 'Uuid',
    ...(scale !== undefined ? { scale } : {}),
    ...(enumValues ? { enumValues: enumValues.map((value) => value.name) } : {}),
    ...(iri ? { iri } : {}),
  }
}

/**
 * The scale of a Decimal column whose native type declares one (`@db.Decimal(10, 2)` on
 * PostgreSQL, MySQL, SQL Server): its values are written with exactly that many decimals, as the
 * database holds them. Without one (SQLite has no native types; elsewhere the default column),
 * values are written in their shortest form.
 */
function decimalScale(field: DMMF.Field): number | undefined {
  if (field.type !== 'Decimal' || !field.nativeType) return undefined
  const [name, args] = field.nativeType
  if (name !== 'Decimal' && name !== 'Numeric') return undefined
  const scale = Number(args?.[1])
  return Number.isInteger(scale) && scale >= 0 ? scale : undefined
}
