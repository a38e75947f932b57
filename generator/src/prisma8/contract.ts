/**
 * The part of a Prisma 8 contract (`contract.json`, written by `prisma contract emit`) the
 * generator reads, as a type of its own and checked when read: Prisma 8's `Contract` type
 * (`@prisma/orm-postgres/contract`) would make the generator depend on Prisma 8, and a contract
 * emitted by another release should fail with the path of what is missing, not later with an
 * undefined property.
 */
import { z } from 'zod'

const scalarType = z.object({
  kind: z.string(),
  codecId: z.string().optional(),
  typeParams: z.record(z.string(), z.unknown()).optional(),
})

const valueSet = z.object({ entityKind: z.string(), entityName: z.string() })

const field = z.object({
  nullable: z.boolean(),
  many: z.boolean().optional(),
  type: scalarType,
  valueSet: valueSet.optional(),
})

const relation = z.object({
  cardinality: z.string(),
  to: z.object({ model: z.string(), namespace: z.string() }),
  on: z.object({ localFields: z.array(z.string()), targetFields: z.array(z.string()) }).optional(),
})

const model = z.object({
  fields: z.record(z.string(), field),
  relations: z.record(z.string(), relation),
  storage: z.object({
    table: z.string(),
    namespaceId: z.string().optional(),
    fields: z.record(z.string(), z.object({ column: z.string() })),
  }),
})

const enumType = z.object({
  members: z.array(z.object({ name: z.string(), value: z.unknown() })),
})

const column = z.object({
  codecId: z.string(),
  nativeType: z.string(),
  nullable: z.boolean(),
  typeParams: z.record(z.string(), z.unknown()).optional(),
})

const table = z.object({
  columns: z.record(z.string(), column),
  primaryKey: z.object({ columns: z.array(z.string()) }).optional(),
  uniques: z.array(z.object({ columns: z.array(z.string()) })),
  indexes: z.array(
    z.object({ columns: z.array(z.string()), name: z.string().optional(), unique: z.boolean() })
  ),
})

const contract = z.object({
  targetFamily: z.string(),
  target: z.string(),
  domain: z.object({
    namespaces: z.record(
      z.string(),
      z.object({
        models: z.record(z.string(), model).default({}),
        enum: z.record(z.string(), enumType).optional(),
      })
    ),
  }),
  storage: z.object({
    namespaces: z.record(
      z.string(),
      z.object({ entries: z.object({ table: z.record(z.string(), table).default({}) }) })
    ),
  }),
})

export type Prisma8Contract = z.infer<typeof contract>
export type ContractModel = z.infer<typeof model>
export type ContractField = z.infer<typeof field>
export type ContractRelation = z.infer<typeof relation>
export type ContractTable = z.infer<typeof table>
export type ContractColumn = z.infer<typeof column>

/**
 * The contract in `text` (the file `label`), checked: throws naming the first properties that are
 * not as read, or a target other than PostgreSQL (the generator serves Prisma 8 on PostgreSQL).
 */
export function readContract(text: string, label: string): Prisma8Contract {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`prisma-hydra cannot read ${label}: ${(error as Error).message}`)
  }
  const parsed = contract.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `  - ${issue.path.join('.') || '(the file)'}: ${issue.message}`)
    throw new Error(
      `prisma-hydra cannot read ${label}: it is not a Prisma 8 contract as \`prisma contract emit\` writes it:\n${issues.join('\n')}`
    )
  }
  const { targetFamily, target } = parsed.data
  if (targetFamily !== 'sql' || target !== 'postgres')
    throw new Error(
      `prisma-hydra cannot serve ${label}: its target is "${targetFamily}/${target}"; on Prisma 8 the generator serves PostgreSQL contracts ("sql/postgres") only`
    )
  return parsed.data
}
