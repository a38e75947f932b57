/**
 * Foreign keys to models that are not served (docs/hydra.md#relations): the relation is never
 * shown, but its key would be, as a plain field holding a private model's id. Served anyway (it is
 * a column of the served model, and hiding it silently would be a surprise of its own), with a
 * warning at generation naming the two ways out.
 */
import type { DMMF } from '@prisma/generator-helper'
import { parseAnnotations } from '../annotations/parse.js'
import type { Problem } from '../problems.js'

/** Whether a field's documentation carries `annotation` (`hidden`, `property`). */
function annotated(field: DMMF.Field, annotation: string): boolean {
  return parseAnnotations(field.documentation).annotations.some((a) => a.name === annotation)
}

/**
 * A warning for each shown foreign key of a served model whose relation points at a model that is
 * not served; a key hidden (`@hidden`) or declared a property of the API (`@property`) is the
 * schema's choice and goes unreported, and so does the primary key.
 */
export function unservedForeignKeys(
  datamodel: DMMF.Datamodel,
  served: ReadonlySet<string>
): Problem[] {
  const problems: Problem[] = []
  for (const model of datamodel.models) {
    if (!served.has(model.name)) continue
    for (const relation of model.fields) {
      if (relation.kind !== 'object' || relation.isList || served.has(relation.type)) continue
      if (annotated(relation, 'hidden')) continue
      for (const key of relation.relationFromFields ?? []) {
        const field = model.fields.find((candidate) => candidate.name === key)
        if (!field || field.isId || annotated(field, 'hidden') || annotated(field, 'property'))
          continue
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
