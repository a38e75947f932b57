/**
 * @module
 * A model's compiled form, as the `compiled` engine reads it (runtime/src/contract/model-source.ts
 * `CompiledModel`): the `SELECT` of its selected columns, each scalar field's column and type, and
 * each to-one relation it joins (docs/member-shape.md), to embed it or to read the key of a link
 * only the related row holds: the related table, the columns it joins on, and the related model's
 * selected columns.
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

/** The pairs of columns of the to-one relation `field` of `model`: none when it is not one. */
function pairsOf(
  models: EmitContext['compiledModels'],
  model: string,
  field: string
): readonly (readonly [string, string])[] {
  const relation = models?.[model]?.relations[field]
  return relation && !relation.many && !relation.through ? relation.on : []
}

/**
 * Whether `resource` has a compiled form: each link whose key only the related row holds is a
 * relation the compiled models join.
 */
export const compiles = (resource: ResourceModel, models: EmitContext['compiledModels']): boolean =>
  resource.links.every(
    (link) => !Array.isArray(link.from) || pairsOf(models, resource.name, link.field).length > 0
  )

/**
 * The to-one relations of `resource` a page joins, by link: each link to a served model whose
 * relation the schema's compiled models hold (its foreign key on either side, of one column or
 * several), with the related table, the first pair of columns it joins on (`on`) and any other
 * (`alsoOn`, a key of several columns), and the related model's selected columns (its key, the
 * link's value, and what an embed may ask of it).
 */
function compiledRelations(
  resource: ResourceModel,
  resources: readonly ResourceModel[],
  models: EmitContext['compiledModels']
): string[] {
  const joins: string[] = []
  for (const link of resource.links) {
    if (link.kind !== 'one') continue
    const target = resources.find((candidate) => candidate.name === link.target)
    const [on, ...alsoOn] = pairsOf(models, resource.name, link.field)
    if (!target || !on) continue
    const selected = target.columns.filter((column) => target.selected.includes(column.name))
    const table = `{ name: ${JSON.stringify(target.table.name)}, schema: ${JSON.stringify(target.table.schema)} }`
    const more = alsoOn.length > 0 ? `, alsoOn: ${JSON.stringify(alsoOn)}` : ''
    joins.push(
      `${JSON.stringify(link.field)}: { table: ${table}, on: ${JSON.stringify(on)}${more}, columns: { ${columnEntries(selected).join(', ')} } }`
    )
  }
  return joins
}

/**
 * The model's compiled form: the `SELECT` of its selected columns in `select`'s order (the
 * statement every compiled read starts with), each scalar field's column and type, whether it is
 * optional, and an enum's values, the to-one relations it joins, and the schema's enums stored
 * under other names, when it has any. Undefined when a link it shows cannot be read by a join.
 */
export function compiledModel(
  resource: ResourceModel,
  {
    provider,
    storedEnums,
    compiledModels,
  }: Pick<EmitContext, 'provider' | 'storedEnums' | 'compiledModels'>,
  resources: readonly ResourceModel[]
): string | undefined {
  if (!compiles(resource, compiledModels)) return undefined
  const byName = new Map(resource.columns.map((entry) => [entry.name, entry]))
  const select = selectStatement(
    provider,
    resource.table,
    resource.selected.map((name) => [name, byName.get(name)?.column ?? name])
  )
  const columns = columnEntries(resource.columns)
  const relations = compiledRelations(resource, resources, compiledModels)
  const joined = relations.length > 0 ? `, joins: { ${relations.join(', ')} }` : ''
  const enums = storedEnums ? ', enums: compiledEnums' : ''
  const native = Object.fromEntries(
    resource.columns.flatMap(({ name, native }) => (native ? [[name, native]] : []))
  )
  const nativeTypes =
    Object.keys(native).length > 0 ? `, nativeTypes: ${JSON.stringify(native)}` : ''
  return `{ select: ${JSON.stringify(select)}, columns: { ${columns.join(', ')} }${nativeTypes}${joined}, name: ${JSON.stringify(resource.name)}, models: compiledModels${enums} }`
}
