/**
 * The DMMF datamodel Prisma 7 gives a generator, built from a Prisma 8 contract and its schema's
 * text: what `buildHydra` reads, so that one annotated schema means the same on both. The
 * contract says what is stored (tables, columns, keys, uniques, indexes, relations' keys, each
 * column's codec and type parameters); the text gives the order of models and fields, the `///`
 * comments, the types as written, relation names, and whether a unique is a field's `@unique` or
 * the model's `@@unique`.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Problem } from '../problems.js'
import type {
  ContractField,
  ContractModel,
  ContractRelation,
  ContractTable,
  Prisma8Contract,
} from './contract.js'
import { documentationOf } from './doc-comments.js'
import type {
  ArgValue,
  SourceAttribute,
  SourceField,
  SourceModel,
  SourceSchema,
} from './psl-source.js'
import { nativeTypeOf, PRISMA_SCALARS, scalarTypeOf } from './scalar-types.js'

/** The datamodel, and warnings about what it leaves out. */
export interface Prisma8Datamodel {
  datamodel: DMMF.Datamodel
  warnings: Problem[]
}

interface ModelContext {
  /** The schema file as messages name it. */
  file: string
  source: SourceModel
  contract: ContractModel
  table: ContractTable
  /** Field name → column name. */
  column: (field: string) => string
  /** Column name → field name. */
  field: (column: string) => string
}

/**
 * The datamodel of `contract` (the file `contractLabel`) and `source`; throws listing every model
 * and field the two disagree on (a contract emitted before the schema last changed).
 */
export function prisma8Datamodel(
  contract: Prisma8Contract,
  source: SourceSchema,
  contractLabel: string
): Prisma8Datamodel {
  const mismatches: string[] = []
  const warnings: Problem[] = []
  const contexts = modelContexts(contract, source, mismatches)
  const enumNames = new Set(source.enums.map((declared) => declared.name))
  const models: DMMF.Model[] = []
  const indexes: DMMF.Index[] = []
  for (const context of contexts) {
    const fields = readFields(context, enumNames, mismatches, warnings)
    models.push(modelOf(context, fields))
    indexes.push(...indexesOf(context))
  }
  const enums = readEnums(contract, source, mismatches)
  if (mismatches.length > 0)
    throw new Error(
      `prisma-hydra: ${contractLabel} does not match ${source.file}; run \`prisma contract emit\` again:\n${mismatches.map((line) => `  - ${line}`).join('\n')}`
    )
  return { datamodel: { models, enums, types: [], indexes }, warnings }
}

function modelContexts(
  contract: Prisma8Contract,
  source: SourceSchema,
  mismatches: string[]
): ModelContext[] {
  const byName = new Map<string, { model: ContractModel; namespace: string }>()
  for (const [namespace, { models }] of Object.entries(contract.domain.namespaces))
    for (const [name, model] of Object.entries(models)) byName.set(name, { model, namespace })
  const declared = new Set(source.models.map((model) => model.name))
  for (const name of byName.keys())
    if (!declared.has(name))
      mismatches.push(`model "${name}" is in the contract, not in the schema`)
  return source.models.flatMap((model) => {
    const found = byName.get(model.name)
    const at = `${source.file}:${model.line}`
    if (!found) {
      mismatches.push(`model "${model.name}" (${at}) is not in the contract`)
      return []
    }
    const { storage } = found.model
    const namespace = own(contract.storage.namespaces, storage.namespaceId ?? found.namespace)
    const table = namespace && own(namespace.entries.table, storage.table)
    if (!table) {
      mismatches.push(`model "${model.name}" (${at}): the contract has no table "${storage.table}"`)
      return []
    }
    const columns = new Map(
      Object.entries(storage.fields).map(([name, { column }]) => [name, column])
    )
    const fields = new Map([...columns].map(([name, column]) => [column, name]))
    return [
      {
        file: source.file,
        source: model,
        contract: found.model,
        table,
        column: (name: string) => columns.get(name) ?? name,
        field: (column: string) => fields.get(column) ?? column,
      },
    ]
  })
}

function readFields(
  context: ModelContext,
  enumNames: ReadonlySet<string>,
  mismatches: string[],
  warnings: Problem[]
): DMMF.Field[] {
  const { source, contract } = context
  const written = new Set(source.fields.map((field) => field.name))
  for (const name of [...Object.keys(contract.fields), ...Object.keys(contract.relations)])
    if (!written.has(name))
      mismatches.push(`field "${source.name}.${name}" is in the contract, not in the schema`)
  const foreignKeys = new Set(
    source.fields
      .filter((field) => hasArg(field, 'relation', 'fields'))
      .flatMap((field) => own(contract.relations, field.name)?.on?.localFields ?? [])
  )
  return source.fields.flatMap((field): DMMF.Field[] => {
    const relation = own(contract.relations, field.name)
    if (relation) return [relationField(context, field, relation)]
    const scalar = own(contract.fields, field.name)
    if (!scalar) {
      mismatches.push(
        `field "${source.name}.${field.name}" (${context.file}:${field.line}) is not in the contract`
      )
      return []
    }
    const built = scalarField(context, field, scalar, enumNames, foreignKeys)
    if (built) return [built]
    warnings.push({
      severity: 'warning',
      location: `Model "${source.name}", field "${field.name}"`,
      message: `its column type (${scalar.type.codecId ?? scalar.type.kind}) has no Prisma scalar type: the field is left out, as Prisma leaves out an Unsupported field`,
    })
    return []
  })
}

/** `record[key]` when `record` holds it itself: a field may be named `constructor`. */
const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined

/** The attribute `name` of `field`, if written. */
const attributeOf = (field: SourceField, name: string) =>
  field.attributes.find((attribute) => attribute.name === name)

const hasArg = (field: SourceField, attribute: string, arg: string) =>
  attributeOf(field, attribute)?.args.some((given) => given.name === arg) ?? false

function scalarField(
  context: ModelContext,
  field: SourceField,
  scalar: ContractField,
  enumNames: ReadonlySet<string>,
  foreignKeys: ReadonlySet<string>
): DMMF.Field | undefined {
  const column = context.column(field.name)
  const stored = own(context.table.columns, column)
  const enumName =
    scalar.valueSet?.entityKind === 'enum'
      ? scalar.valueSet.entityName
      : enumNames.has(field.type)
        ? field.type
        : undefined
  const type = enumName ?? scalarTypeOf(scalar.type.codecId ?? '')
  if (!type) return undefined
  const pk = context.table.primaryKey?.columns ?? []
  const isList = scalar.many === true
  // A Prisma scalar written bare, or a field preset (`temporal.updatedAt()`): Prisma's own column.
  const written = (PRISMA_SCALARS.has(field.type) && !field.constructed) || field.type.includes('.')
  const defaultValue = defaultOf(attributeOf(field, 'default'))
  const documentation = documentationOf(field.doc)
  return {
    name: field.name,
    ...(column !== field.name ? { dbName: column } : {}),
    kind: enumName ? 'enum' : 'scalar',
    isList,
    isRequired: isList || !scalar.nullable,
    isUnique: context.table.uniques.some(
      (unique) => unique.columns.length === 1 && unique.columns[0] === column
    ),
    isId: pk.length === 1 && pk[0] === column,
    isReadOnly: foreignKeys.has(field.name),
    hasDefaultValue: defaultValue !== undefined,
    type,
    nativeType: enumName || written || !stored ? null : nativeTypeOf(stored),
    ...(defaultValue !== undefined ? { default: defaultValue } : {}),
    isGenerated: false,
    isUpdatedAt: field.type === 'temporal.updatedAt',
    ...(documentation !== undefined ? { documentation } : {}),
  }
}

/** The DMMF's `default` of `@default(...)`: a function's name, or the literal value. */
function defaultOf(attribute: SourceAttribute | undefined): DMMF.Field['default'] | undefined {
  const value = attribute?.args[0]?.value
  if (!value) return undefined
  if (value.kind === 'call') return { name: value.name, args: [] }
  if (value.kind === 'string') return value.value
  if (value.kind === 'names') return value.names
  const { text } = value
  if (text === 'true' || text === 'false') return text === 'true'
  return text !== '' && !Number.isNaN(Number(text)) ? Number(text) : text
}

function relationField(
  context: ModelContext,
  field: SourceField,
  relation: ContractRelation
): DMMF.Field {
  const owner = hasArg(field, 'relation', 'fields')
  const documentation = documentationOf(field.doc)
  return {
    name: field.name,
    kind: 'object',
    isList: field.isList,
    isRequired: field.isList || !field.isOptional,
    isUnique: false,
    isId: false,
    isReadOnly: false,
    hasDefaultValue: false,
    type: relation.to.model,
    nativeType: null,
    relationName: relationNameOf(context.source.name, field),
    relationFromFields: owner ? [...(relation.on?.localFields ?? [])] : [],
    relationToFields: owner ? [...(relation.on?.targetFields ?? [])] : [],
    isGenerated: false,
    isUpdatedAt: false,
    ...(documentation !== undefined ? { documentation } : {}),
  }
}

/** `@relation("Name")` or `@relation(name: "Name")`, else Prisma's `<A>To<B>` of the two models. */
function relationNameOf(model: string, field: SourceField): string {
  const args = attributeOf(field, 'relation')?.args ?? []
  const named = args.find(
    (arg) => (arg.name === undefined || arg.name === 'name') && arg.value.kind === 'string'
  )
  if (named?.value.kind === 'string') return named.value.value
  return [model, field.type].sort().join('To')
}

/** The field names of `@@unique([...])` / `@@id([...])`, as written. */
function namesOf(attribute: SourceAttribute): string[] {
  const arg = attribute.args.find((given) => given.name === undefined || given.name === 'fields')
  return arg?.value.kind === 'names' ? arg.value.names : []
}

const stringArg = (attribute: SourceAttribute | undefined, name: string): string | null => {
  const value: ArgValue | undefined = attribute?.args.find((arg) => arg.name === name)?.value
  return value?.kind === 'string' ? value.value : null
}

function modelOf(context: ModelContext, fields: DMMF.Field[]): DMMF.Model {
  const { source, contract, table } = context
  const pk = table.primaryKey?.columns ?? []
  const uniques = source.attributes.filter((attribute) => attribute.name === 'unique')
  const id = source.attributes.find((attribute) => attribute.name === 'id')
  const documentation = documentationOf(source.doc)
  return {
    name: source.name,
    dbName: contract.storage.table !== source.name ? contract.storage.table : null,
    schema: source.namespace ?? null,
    fields,
    primaryKey:
      pk.length > 1 ? { name: stringArg(id, 'name'), fields: pk.map(context.field) } : null,
    uniqueFields: uniques.map(namesOf),
    // Prisma 7 gives a null name to an unnamed one, which its type does not admit.
    uniqueIndexes: uniques.map((unique) => ({
      name: stringArg(unique, 'name'),
      fields: namesOf(unique),
    })) as DMMF.Model['uniqueIndexes'],
    isGenerated: false,
    ...(documentation !== undefined ? { documentation } : {}),
  }
}

/** The model's indexes as the DMMF lists them: its key, its uniques, its other indexes. */
function indexesOf(context: ModelContext): DMMF.Index[] {
  const { source, table } = context
  const model = source.name
  const fieldsOf = (columns: readonly string[]) =>
    columns.map((column) => ({ name: context.field(column) }))
  const onField = (columns: readonly string[], attribute: string) => {
    const field = source.fields.find(
      (candidate) => candidate.name === context.field(columns[0] ?? '')
    )
    return (
      columns.length === 1 && field !== undefined && attributeOf(field, attribute) !== undefined
    )
  }
  const pk = table.primaryKey?.columns ?? []
  return [
    ...(pk.length > 0
      ? [{ model, type: 'id' as const, isDefinedOnField: onField(pk, 'id'), fields: fieldsOf(pk) }]
      : []),
    ...table.uniques.map(({ columns }) => ({
      model,
      type: 'unique' as const,
      isDefinedOnField: onField(columns, 'unique'),
      fields: fieldsOf(columns),
    })),
    ...table.indexes.map(({ columns, unique }) => ({
      model,
      type: unique ? ('unique' as const) : ('normal' as const),
      isDefinedOnField: false,
      fields: fieldsOf(columns),
    })),
  ]
}

function readEnums(
  contract: Prisma8Contract,
  source: SourceSchema,
  mismatches: string[]
): DMMF.DatamodelEnum[] {
  const declared = new Map(
    Object.values(contract.domain.namespaces).flatMap(({ enum: enums }) =>
      Object.entries(enums ?? {})
    )
  )
  return source.enums.flatMap((written) => {
    const stored = declared.get(written.name)
    if (!stored) {
      mismatches.push(`enum "${written.name}" is not in the contract`)
      return []
    }
    const documentation = documentationOf(written.doc)
    return [
      {
        name: written.name,
        values: stored.members.map((member) => {
          const doc = documentationOf(
            written.values.find((value) => value.name === member.name)?.doc ?? []
          )
          return {
            name: member.name,
            dbName:
              typeof member.value === 'string' && member.value !== member.name
                ? member.value
                : null,
            ...(doc !== undefined ? { documentation: doc } : {}),
          }
        }),
        dbName: null,
        ...(documentation !== undefined ? { documentation } : {}),
      },
    ]
  })
}
