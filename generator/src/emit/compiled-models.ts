/**
 * @module
 * The generated `compiled-models` module: every model of the schema as the `compiled` engine
 * writes conditions and orders through relations (its table, columns and relations' join
 * columns), by name. Each resource's compiled form names it, so that a condition through a
 * relation reaches the related model's relations at any depth.
 */
import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'
import { runtimeType } from './runtime-imports.js'

/** The module's name beside the resource modules, which no model's may take (config/resource.ts). */
export const COMPILED_MODELS_MODULE = 'compiled-models'

/** Fills the module: `compiledModels`. */
export function emitCompiledModelsModule(
  file: SourceFile,
  model: HydraModel,
  context: EmitContext
): void {
  file.addImportDeclaration({
    moduleSpecifier: context.runtimeModule,
    namedImports: [runtimeType('CompiledModels')],
  })
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      'Every model as the compiled engine writes conditions through its relations (docs/performance.md).',
    ],
    declarations: [
      {
        name: 'compiledModels',
        initializer: `${JSON.stringify(model.compiledModels)} satisfies CompiledModels`,
      },
    ],
  })
}
