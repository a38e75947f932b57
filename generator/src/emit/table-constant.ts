/**
 * @module
 * A generated module's one table: an exported constant written as JSON, checked against the
 * runtime type that reads it (`satisfies`), which the module imports.
 */
import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { EmitContext } from './context.js'
import { type RuntimeType, runtimeType } from './runtime-imports.js'

/** The constant: its name, the runtime type it satisfies, its doc and its value. */
interface TableConstant {
  name: string
  type: RuntimeType
  doc: string
  value: unknown
  /** Whether its literal types are kept (`as const`). */
  literal?: boolean
}

/** Adds to `file` the import of the constant's type and the exported constant. */
export function emitTableConstant(
  file: SourceFile,
  context: EmitContext,
  { name, type, doc, value, literal = false }: TableConstant
): void {
  file.addImportDeclaration({
    moduleSpecifier: context.runtimeModule,
    namedImports: [runtimeType(type)],
  })
  const asConst = literal ? ' as const' : ''
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [doc],
    declarations: [{ name, initializer: `${JSON.stringify(value)}${asConst} satisfies ${type}` }],
  })
}
