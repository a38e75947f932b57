/**
 * @module
 * The names generated modules import from `@prisma-hydra/runtime/generated`, checked by the type
 * checker against that entry: a name the runtime stops exporting fails this package's build, not a
 * user's.
 */
import type * as Runtime from '@prisma-hydra/runtime/generated'
import type { ImportSpecifierStructure, OptionalKind } from 'ts-morph'

/** The values the entry exports. */
export type RuntimeValue = keyof typeof Runtime

/** The types the generated code names, each written as the entry declares it. */
interface RuntimeTypes {
  ApiDescription: Runtime.ApiDescription
  CollectionOperation: Runtime.CollectionOperation<unknown>
  CollectionProvider: Runtime.CollectionProvider<unknown>
  CorsOrigin: Runtime.CorsOrigin
  DocumentedType: Runtime.DocumentedType
  JsonValue: Runtime.JsonValue
  RowWindow: Runtime.RowWindow
}

export type RuntimeType = keyof RuntimeTypes

const RUNTIME_TYPES: Record<RuntimeType, true> = {
  ApiDescription: true,
  CollectionOperation: true,
  CollectionProvider: true,
  CorsOrigin: true,
  DocumentedType: true,
  JsonValue: true,
  RowWindow: true,
}

/** `name` as a runtime type the entry exports; a name it does not export is a generator bug. */
export function asRuntimeType(name: string): RuntimeType {
  if (Object.hasOwn(RUNTIME_TYPES, name)) return name as RuntimeType
  throw new Error(`@prisma-hydra/runtime/generated exports no type ${name}`)
}

type Specifier = OptionalKind<ImportSpecifierStructure>

/** An import of a runtime value. */
export function runtimeValue(name: RuntimeValue): Specifier {
  return { name }
}

/** A type-only import of a runtime type. */
export function runtimeType(name: RuntimeType): Specifier {
  return { name, isTypeOnly: true }
}
