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
  CallerRules: Runtime.CallerRules<Runtime.AccessRules>
  InverseLinks: Runtime.InverseLinks
  CompiledModels: Runtime.CompiledModels
  CompiledEnums: Runtime.CompiledEnums
  WithInverseLinks: Runtime.WithInverseLinks<object, object>
  AuthenticationSettings: Runtime.AuthenticationSettings
  ApiAppOptions: Runtime.ApiAppOptions<object, unknown, Record<string, never>>
  ApiDescription: Runtime.ApiDescription
  ApiDocumentationOptions: Runtime.ApiDocumentationOptions
  CollectionOperation: Runtime.CollectionOperation<unknown>
  CollectionProvider: Runtime.CollectionProvider<unknown>
  OperationProviders: Runtime.OperationProviders<unknown, unknown, unknown, string>
  CorsOrigin: Runtime.CorsOrigin
  DatabaseTimeouts: Runtime.DatabaseTimeouts
  DocumentedType: Runtime.DocumentedType
  Hideable: Runtime.Hideable<object, never>
  CallerApp: Runtime.CallerApp<object, object>
  CallerMember: Runtime.CallerMember<object, object>
  IdKind: Runtime.IdKind
  KeySpec: Runtime.KeySpec
  MemberOf: Runtime.MemberOf<unknown>
  ModelSource: Runtime.ModelSource
  QuerySpec: Runtime.QuerySpec
  ResourceAccess: Runtime.ResourceAccess
  ShapedMemberOf: Runtime.ShapedMemberOf<{ toMember(row: object, base: string): unknown }>
  ResourceAppOptions: Runtime.ResourceAppOptions
  ResourceAppOptionsWith: Runtime.ResourceAppOptionsWith<unknown>
  HydraAppSettings: Runtime.HydraAppSettings
  RelationSource: Runtime.RelationSource
  QueryInput: Runtime.QueryInput<unknown>
  RowWindow: Runtime.RowWindow
  Prisma8BackEndClient: Runtime.Prisma8BackEndClient
  ScopeWhere: Runtime.ScopeWhere
  Decimal: Runtime.Decimal
  JsonValue: Runtime.JsonValue
}

export type RuntimeType = keyof RuntimeTypes

type Specifier = OptionalKind<ImportSpecifierStructure>

/** An import of a runtime value. */
export function runtimeValue(name: RuntimeValue): Specifier {
  return { name }
}

/** A type-only import of a runtime type. */
export function runtimeType(name: RuntimeType): Specifier {
  return { name, isTypeOnly: true }
}
