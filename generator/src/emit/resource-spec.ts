/**
 * @module
 * The resource of a resource module (`bookResource = defineResource(...)`): its name, paths,
 * fields and links, as the runtime renders members, contexts and documentation from them; its key
 * and provider are its model source's.
 */
import type { CodeBlockWriter } from 'ts-morph'
import type { FieldModel, ResourceModel } from '../config/schema/model.js'
import { backRelation } from './back-relation.js'
import { keySpecLiteral } from './item-key.js'
import { resourceNames } from './names.js'

/**
 * `defineResource(bookModel, { ... }, member)`: the resource read from the model source, which
 * gives it its key and provider, and its member writer's code (member-writer.ts).
 */
export function writeResourceSpec(
  resource: ResourceModel,
  resources: readonly ResourceModel[],
  member: string,
  changes = false
) {
  const names = resourceNames(resource)
  return (writer: CodeBlockWriter) => {
    writer.write(`defineResource(${names.model}, `).inlineBlock(() => {
      writer.write('name: ').quote(resource.name).write(',').newLine()
      if (resource.iri) writer.write('iri: ').quote(resource.iri).write(',').newLine()
      writer.writeLine(`hydraPrefix: ${resource.hydraPrefix},`)
      if (resource.cacheControl)
        writer.write('cacheControl: ').quote(resource.cacheControl).write(',').newLine()
      writer.write('collectionPath: ').quote(resource.collectionPath).write(',').newLine()
      // Its collection serves its change feed (docs/syncing.md).
      if (changes) writer.writeLine('changes: true,')
      writer.write('fields: [').indent(() => {
        for (const field of resource.fields) writeField(writer, field).write(',').newLine()
      })
      writer.write('],')
      if (resource.links.length > 0)
        writer.newLine().write('links: ').write(linkList(resource, resources))
      // The items' property filter (docs/member-shape.md), read by the item route.
      if (resource.properties)
        writer.newLine().write(`properties: ${JSON.stringify(resource.properties)},`)
      // The relations its members and items show embedded (docs/member-shape.md).
      if (resource.embedded)
        writer.newLine().write(`embedded: ${JSON.stringify(resource.embedded)},`)
      // The types of the other fields an order names: the runtime keys its batches by them.
      if (resource.unshown.length > 0) {
        writer.newLine().write('unshown: [')
        for (const [index, field] of resource.unshown.entries())
          writeField(writer.conditionalWrite(index > 0, ', '), field)
        writer.write('],')
      }
    })
    writer.write(', ').write(member)
    writer.write(')')
  }
}

/** A field as the runtime's `FieldSpec` literal. */
function writeField(writer: CodeBlockWriter, field: FieldModel): CodeBlockWriter {
  writer.write('{ name: ').quote(field.name).write(', type: ').quote(field.type)
  if (field.isList) writer.write(', list: true')
  if (!field.isRequired) writer.write(', required: false')
  if (field.uuid) writer.write(', uuid: true')
  if (field.iri) writer.write(', iri: ').quote(field.iri)
  if (field.scale !== undefined) writer.write(`, scale: ${field.scale}`)
  if (field.enumValues)
    writer.write(`, values: [${field.enumValues.map((value) => JSON.stringify(value)).join(', ')}]`)
  return writer.write(' }')
}

/** The resource's links as the runtime's `LinkSpec[]` literal. */
function linkList(resource: ResourceModel, resources: readonly ResourceModel[]): string {
  const entries = resource.links.flatMap((link) => {
    const target = link.targetResource
    if (!target) return []
    const parts = [
      `name: ${JSON.stringify(link.name)}`,
      `kind: '${link.kind}'`,
      `target: { name: ${JSON.stringify(link.target)}, ${target.iri ? `iri: ${JSON.stringify(target.iri)}, ` : ''}collectionPath: ${JSON.stringify(target.collectionPath)}, key: ${keySpecLiteral(target.key)} }`,
    ]
    // A link `@property` renames: its Prisma field, which names its filters and orders.
    if (link.field !== link.name) parts.push(`field: ${JSON.stringify(link.field)}`)
    if (link.from) parts.push(`from: ${JSON.stringify(link.from)}`)
    if (link.kind === 'one' && !link.required) parts.push('required: false')
    if (link.iri) parts.push(`iri: ${JSON.stringify(link.iri)}`)
    // To-many: the relation back to this item, whose filters its sub-collection leaves out.
    const served = resources.find((candidate) => candidate.name === link.target)
    const back =
      link.kind === 'many' && served ? backRelation(served, resource.name, link) : undefined
    if (back) parts.push(`back: ${JSON.stringify(back)}`)
    return [`{ ${parts.join(', ')} }`]
  })
  return `[${entries.join(', ')}],`
}
