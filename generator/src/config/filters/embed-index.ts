/**
 * The index a capped to-many embed reads through (docs/member-shape.md): its related rows are read
 * for a page's members by the relation's foreign key, in the target's key order, so without an
 * index starting with that key the database walks every related row to find a member's first ones.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Report } from '../../problems.js'

/** What the check needs of a capped to-many embed's relation. */
export interface EmbeddedRelation {
  /** The target's model. */
  target: string
  /** How the target's rows of one member are selected (model.ts's LinkModel `condition`). */
  condition: { field: string; kind: 'column' | 'is' | 'some' } | undefined
  /** The fields of the target's item key, which order a member's related rows after the key. */
  keyFields: readonly string[]
}

/**
 * Warns when no index of the target starts with the relation's foreign key. MySQL and MariaDB
 * index a foreign key themselves, and a relation read through a back relation has no key of the
 * target's (an implicit many-to-many's join table is indexed by Prisma): neither is warned of.
 */
export function checkEmbedIndex(
  relation: EmbeddedRelation,
  datamodel: Pick<DMMF.Datamodel, 'indexes'>,
  provider: string,
  report: Report
): void {
  const { condition, target, keyFields } = relation
  if (condition?.kind !== 'column' || provider === 'mysql') return
  const foreignKey = condition.field
  const supported = (datamodel.indexes ?? []).some(
    (index) => index.model === target && index.fields[0]?.name === foreignKey
  )
  if (supported) return
  const advised = [foreignKey, ...keyFields.filter((name) => name !== foreignKey)].join(', ')
  report({
    severity: 'warning',
    source: '@property',
    option: 'embed',
    message: `no index of ${target} starts with the relation's foreign key (${foreignKey}): add @@index([${advised}]) to ${target} so each member's first related rows are found without walking the others`,
  })
}
