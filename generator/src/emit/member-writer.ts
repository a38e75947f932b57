/**
 * @module
 * A resource's member writer (`(row, base) => ({ '@id': …, '@type': 'Book', id: row.id, … })`):
 * a member straight from a row, its fields and links named in the code, as the runtime's generic
 * writer (runtime/src/hydra/resource.ts) writes it from the resource's description, property for
 * property in the same order. One object literal a row costs less than a loop over the fields
 * (`npm run bench:members`, bench/RESULTS.md).
 */
import { scalarType } from '@prisma-hydra/runtime/defaults'
import type { FieldModel, LinkModel, ResourceModel } from '../config/schema/model.js'
import { keySpecLiteral } from './item-key.js'
import { resourceNames } from './names.js'
import type { RuntimeValue } from './runtime-imports.js'

/** A member writer's code and the runtime values it calls. */
export interface MemberWriterCode {
  code: string
  uses: RuntimeValue[]
}

const CALLED: readonly RuntimeValue[] = ['memberValues', 'keySegment', 'singleSegment']

/** Text as it is inside a template literal. */
const templateText = (text: string) => text.replace(/[`\\$]/g, '\\$&')

/** The expression of a field's JSON value, read from `row`. */
function fieldValue(field: FieldModel): string {
  const read = `row.${field.name}`
  const formatter = field.kind === 'enum' ? null : scalarType(field.type)?.formatter
  if (!formatter) return read
  const convert =
    formatter === 'decimalText' && field.scale !== undefined
      ? (value: string) => `memberValues.decimalText(${value}, ${field.scale})`
      : (value: string) => `memberValues.${formatter}(${value})`
  return field.isList ? `memberValues.list(${read}, (value) => ${convert('value')})` : convert(read)
}

/**
 * The expression of a to-one link's value, an IRI or null: the related key read from the row as
 * the runtime's link writer reads it (runtime/src/hydra/links.ts), a column or through the
 * relation; a to-many link's, its sub-collection's IRI.
 */
function linkValue(link: LinkModel, target: NonNullable<LinkModel['targetResource']>): string {
  if (link.kind === 'many') return `\`\${iri}/${templateText(link.name)}\``
  const path = templateText(target.collectionPath)
  const from = link.from ?? link.name
  const value =
    typeof from === 'string' || from[1] === undefined
      ? `row.${typeof from === 'string' ? from : from[0]}`
      : `row.${from[0]}?.${from[1]}`
  const key = keySpecLiteral(target.key)
  if (target.key.fields.length > 1)
    return `${value} ? \`\${base}${path}/\${keySegment(${key}, ${value})}\` : null`
  const field = target.key.fields[0] as FieldModel
  // An Int's text is its digits, which percent-encoding leaves as they are.
  const segment =
    field.type === 'Int' && field.kind === 'scalar'
      ? `\${${value}}`
      : `\${singleSegment(${key}, ${value})}`
  return `${value} === null || ${value} === undefined ? null : \`\${base}${path}/${segment}\``
}

/**
 * The member writer of `resource` as the third argument of its `defineResource`, or undefined
 * when it keeps the generic writer.
 */
export function memberWriter(resource: ResourceModel): MemberWriterCode {
  const names = resourceNames(resource)
  const [key] = resource.key.fields
  const segment =
    resource.key.fields.length === 1 && key?.type === 'Int' && key.kind === 'scalar'
      ? `\${row.${key.name}}`
      : `\${keySegment(${names.model}.key, row)}`
  // Names as the description gives them, quoted: a link's may hold a `-`.
  const properties = [
    `'@id': iri`,
    `'@type': ${JSON.stringify(resource.name)}`,
    ...resource.fields.map((field) => `${JSON.stringify(field.name)}: ${fieldValue(field)}`),
    ...resource.links.flatMap((link) =>
      link.targetResource
        ? [`${JSON.stringify(link.name)}: ${linkValue(link, link.targetResource)}`]
        : []
    ),
  ]
  const code = [
    `(row: ${names.row}, base: string) => {`,
    `  const iri = \`\${base}${templateText(resource.collectionPath)}/${segment}\``,
    `  return { ${properties.join(', ')} }`,
    '}',
  ].join('\n')
  return {
    code,
    uses: CALLED.filter((name) => code.includes(name === 'memberValues' ? `${name}.` : `${name}(`)),
  }
}
