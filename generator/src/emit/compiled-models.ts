/**
 * @module
 * The generated `compiled-models` module: every model of the schema as the `compiled` engine
 * writes conditions and orders through relations (its table, columns and relations' join
 * columns), by name. Each resource's compiled form names it, so that a condition through a
 * relation reaches the related model's relations at any depth.
 */
import type { SourceFile } from 'ts-morph'
import type { HydraModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'
import { emitTableConstant } from './table-constant.js'

/** The module's name beside the resource modules, which no model's may take (config/resource.ts). */
export const COMPILED_MODELS_MODULE = 'compiled-models'

/** Fills the module: `compiledModels`, and `compiledEnums` when the schema has any. */
export function emitCompiledModelsModule(
  file: SourceFile,
  model: HydraModel,
  context: EmitContext
): void {
  emitTableConstant(file, context, {
    name: 'compiledModels',
    type: 'CompiledModels',
    doc: 'Every model as the compiled engine writes conditions through its relations (docs/performance.md).',
    value: model.compiledModels,
  })
  if (Object.keys(model.compiledEnums ?? {}).length === 0) return
  emitTableConstant(file, context, {
    name: 'compiledEnums',
    type: 'CompiledEnums',
    doc: "The enums whose values the database stores under other names: each value's stored name.",
    value: model.compiledEnums,
  })
}
