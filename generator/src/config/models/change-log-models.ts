/**
 * Which models may say `@changes` (docs/syncing.md): not the log's own tables, not a view (no
 * trigger fires on one), and on MySQL/MariaDB not a model that a foreign key's action changes,
 * since those servers run no trigger for a row changed by a foreign key's `CASCADE`, `SET NULL`
 * or `SET DEFAULT`, so the log would miss the change.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Problem } from '../../problems.js'
import type { ResourceModel } from '../schema/model.js'

/** The actions of a foreign key that change the child's row. */
const CHANGING = new Set(['Cascade', 'SetNull', 'SetDefault'])

/** A `view` block's header in a schema's text. */
const VIEW = /^[ \t]*view[ \t]+(\w+)[ \t]*\{/gm

/** The problems of each logged resource that cannot be logged. */
export function unloggableModels(
  datamodel: DMMF.Datamodel,
  provider: string,
  logged: readonly ResourceModel[],
  logTables: readonly string[],
  schema: string | undefined
): Problem[] {
  const views = new Set([...(schema ?? '').matchAll(VIEW)].map((match) => match[1]))
  return logged.flatMap((resource) => {
    const report = (message: string): Problem => ({
      severity: 'error',
      location: `Model "${resource.name}"`,
      source: '@changes',
      message,
    })
    if (logTables.includes(resource.table.name))
      return [report("is the change log's own table: remove @changes from it")]
    if (views.has(resource.name))
      return [report('is a view, whose rows no trigger sees change: remove @changes from it')]
    if (provider !== 'mysql') return []
    const model = datamodel.models.find((entry) => entry.name === resource.name)
    return (model?.fields ?? []).flatMap((field) => {
      const actions = changingActions(model as DMMF.Model, field)
      if (actions.length === 0) return []
      return [
        report(
          `the relation "${field.name}" changes this model's rows by its foreign key (${actions.join(', ')}), which MySQL and MariaDB make without running triggers: the log would miss those changes (refused under relationMode = "prisma" too, whose emulation of the actions is untested with the log). Write @relation(..., ${actions.map((action) => `${action.split(':')[0]}: Restrict`).join(', ')}) (or NoAction) on "${field.name}"`
        ),
      ]
    })
  })
}

/**
 * The actions of `field`'s foreign key (when `model` holds it) that change `model`'s rows, with
 * Prisma's defaults: `onUpdate: Cascade`, and `onDelete: SetNull` for an optional relation.
 */
function changingActions(model: DMMF.Model, field: DMMF.Field): string[] {
  if (field.kind !== 'object' || (field.relationFromFields ?? []).length === 0) return []
  const optional = (field.relationFromFields ?? []).some(
    (name) => model.fields.find((entry) => entry.name === name)?.isRequired === false
  )
  const onDelete = field.relationOnDelete ?? (optional ? 'SetNull' : 'Restrict')
  const onUpdate = field.relationOnUpdate ?? 'Cascade'
  return [
    ...(CHANGING.has(onDelete) ? [`onDelete: ${onDelete}`] : []),
    ...(CHANGING.has(onUpdate) ? [`onUpdate: ${onUpdate}`] : []),
  ]
}
