/**
 * @module
 * A model's compiled form, as the `compiled` engine reads it (runtime/src/contract/model-source.ts
 * `CompiledModel`): the `SELECT` of its selected columns, each scalar field's column and type, and
 * each to-one relation it can embed as a join (docs/member-shape.md): the related table, the
 * foreign key and the related key it joins on, and the related model's selected columns.
 */
import { selectStatement } from '@prisma-hydra/runtime/defaults'
import type { ResourceModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'

/** `"name": [column, type, optional?, values?]` of each of `columns`. */
function columnEntries(columns: ResourceModel['columns']): string[] {
  return columns.map(({ name, column, type, optional, values }) => {
    const tuple: unknown[] = [column, type]
    if (optional || values) tuple.push(optional)
    if (values) tuple.push(values)
    return `${JSON.stringify(name)}: ${JSON.stringify(tuple)}`
  })
}

/**
 * The to-one relations of `resource` a page may embed as a join: each link read by a foreign key
 * of its own to a served model's single key, with the related table, the two columns it joins on
 * and the related model's selected columns (what an embed may ask of it).
 */
function compiledRelations(resource: ResourceModel, resources: readonly ResourceModel[]): string[] {
  const byName = new Map(resource.columns.map((entry) => [entry.name, entry]))
  return resource.links.flatMap((link) => {
    if (link.kind !== 'one' || typeof link.from !== 'string') return []
    const target = resources.find((candidate) => candidate.name === link.target)
    const from = byName.get(link.from)
    const key = target?.columns.find((column) => column.name === target.idField.name)
    if (!target || !from || !key) return []
    const selected = target.columns.filter((column) => target.selected.includes(column.name))
    const table = `{ name: ${JSON.stringify(target.table.name)}, schema: ${JSON.stringify(target.table.schema)} }`
    const on = JSON.stringify([from.column, key.column])
    return [
      `${JSON.stringify(link.field)}: { table: ${table}, on: ${on}, columns: { ${columnEntries(selected).join(', ')} } }`,
    ]
  })
}

/**
 * The model's compiled form: the `SELECT` of its selected columns in `select`'s order (the
 * statement every compiled read starts with), each scalar field's column and type, whether it is
 * optional, and an enum's values, the to-one relations it joins to embed them, and the schema's
 * enums stored under other names, when it has any.
 */
export function compiledModel(
  resource: ResourceModel,
  { provider, storedEnums }: Pick<EmitContext, 'provider' | 'storedEnums'>,
  resources: readonly ResourceModel[]
): string {
  const byName = new Map(resource.columns.map((entry) => [entry.name, entry]))
  const select = selectStatement(
    provider,
    resource.table,
    resource.selected.map((name) => [name, byName.get(name)?.column ?? name])
  )
  const columns = columnEntries(resource.columns)
  const relations = compiledRelations(resource, resources)
  const joined = relations.length > 0 ? `, joins: { ${relations.join(', ')} }` : ''
  const enums = storedEnums ? ', enums: compiledEnums' : ''
  return `{ select: ${JSON.stringify(select)}, columns: { ${columns.join(', ')} }${joined}, name: ${JSON.stringify(resource.name)}, models: compiledModels${enums} }`
}
