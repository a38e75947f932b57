/**
 * @module
 * The sub-collections that list a resource's items (`/authors/:id/books`), and the relations
 * data a resource module writes for them (`bookRelations`): the parent model, found by its key,
 * and the condition that ties a row to it.
 */
import type { CodeBlockWriter } from 'ts-morph'
import type { HydraModel, LinkModel, ResourceModel } from '../config/schema/model.js'
import { camelCase, pascalCase } from '../config/schema/naming.js'
import { backRelation } from './back-relation.js'
import { keyLiteral } from './item-key.js'

/** A to-many link whose sub-collection (`/authors/:id/books`) lists this resource's items. */
export interface SubCollection {
  parent: ResourceModel
  link: LinkModel
}

/** The sub-collections that list `resource`: every to-many link to it, self-relations included. */
export function subCollectionsOf(resource: ResourceModel, model: HydraModel): SubCollection[] {
  return model.resources.flatMap((parent) =>
    parent.links
      .filter((link) => link.kind === 'many' && link.target === resource.name && link.condition)
      .map((link) => ({ parent, link }))
  )
}

export const subCollectionPath = ({ parent, link }: SubCollection) =>
  `${parent.collectionPath}/:id/${link.name}`

/** The sub-collection's key in the relations object: the parent and the link (`authorBooks`). */
export const relationKey = ({ parent, link }: SubCollection) =>
  `${camelCase(parent.fileName)}${pascalCase(link.name)}`

/** The relations object literal: one `RelationSource` per sub-collection. */
export function writeRelations(resource: ResourceModel, subCollections: readonly SubCollection[]) {
  return (writer: CodeBlockWriter) => {
    writer.inlineBlock(() => {
      for (const sub of subCollections) {
        const { parent, link } = sub
        const condition = link.condition
        if (!condition) continue
        const parentSpec = [
          `name: ${JSON.stringify(parent.name)}`,
          `delegate: ${JSON.stringify(parent.delegate)}`,
          `key: ${keyLiteral(parent)}`,
          `link: ${JSON.stringify(link.name)}`,
        ].join(', ')
        const back = backRelation(resource, parent.name, link)
        const relation = back ? `, relation: ${JSON.stringify(back)}` : ''
        const through = condition.relation
          ? `, relation: ${JSON.stringify(condition.relation)}`
          : ''
        writer.writeLine(
          `${relationKey(sub)}: { parent: { ${parentSpec} }, condition: { kind: '${condition.kind}', field: ${JSON.stringify(condition.field)}${through} }${relation} },`
        )
      }
    })
    writer.write(' satisfies Record<string, RelationSource<KeySpec>>')
  }
}
