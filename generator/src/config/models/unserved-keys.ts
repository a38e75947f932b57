/**
 * Foreign keys to models that are not served (docs/hydra.md#relations): the relation is never
 * shown, but its key would be, as a plain field holding a private model's id. Served anyway (it is
 * a column of the served model, and hiding it silently would be a surprise of its own), with a
 * warning at generation naming the two ways out.
 */
import type { Problem } from '../../problems.js'
import type { Catalog } from './catalog.js'

/**
 * A warning for each shown foreign key of a served model whose relation points at a model that is
 * not served; a key hidden (`@hidden`) or declared a property of the API (`@property`) is the
 * schema's choice and goes unreported, and so does the primary key.
 */
export function unservedForeignKeys(catalog: Catalog): Problem[] {
  const problems: Problem[] = []
  const served = catalog.servedNames
  for (const { model, fields } of catalog.models) {
    if (!served.has(model.name)) continue
    for (const { field: relation, hidden } of fields) {
      if (relation.kind !== 'object' || relation.isList || served.has(relation.type)) continue
      if (hidden) continue
      for (const key of relation.relationFromFields ?? []) {
        const found = fields.find((candidate) => candidate.field.name === key)
        const field = found?.field
        if (!field || field.isId || found.hidden || found.property) continue
        problems.push({
          severity: 'warning',
          location: `Model "${model.name}", field "${key}"`,
          message: `is the foreign key of relation "${relation.name}" to ${relation.type}, which is not served: it is shown as a plain field holding ${relation.type}'s key. Hide it (/// @hidden), serve ${relation.type} (/// @pagination) to show the relation as a link, or keep it as a field of the API with /// @property`,
        })
      }
    }
  }
  return problems
}
