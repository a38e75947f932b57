/**
 * A deterministic data set for the platform fixture (test/fixtures/platform), written from the
 * schema's own description (Prisma's DMMF) rather than model by model: 3 to 9 rows a model, parents
 * before their children. Each row's key is given (Int keys 1, 2…; cuid-, uuid-like and natural
 * text keys, one of each model's natural keys holding text an IRI must encode); half of a model's
 * rows hang under its parents' first row, so that the first parent's sub-collections run over
 * several pages; optional fields and relations are empty on some rows; rows share the dates their
 * keyset cursors run on, in pairs; the long text fields are a paragraph, so that a small budget
 * cuts pages. Implicit many-to-many relations link each row to two of the other side.
 */
import { readFile } from 'node:fs/promises'
import { getDMMF } from '@prisma/internals'
import type { PrismaClient } from '#fixtures/platform/prisma/client.js'

type Datamodel = Awaited<ReturnType<typeof getDMMF>>['datamodel']
type Model = Datamodel['models'][number]
type Field = Model['fields'][number]
type Delegate = {
  createMany(args: { data: Record<string, unknown>[] }): Promise<unknown>
  update(args: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<unknown>
}

const SCHEMA = new URL('../fixtures/platform/schema.prisma', import.meta.url)

/** Fields written as a paragraph, long enough that a few members fill a small budget. */
const LONG = new Set(['body', 'description', 'content', 'html', 'payload', 'sql', 'rule', 'bio'])
// Under 191 characters, MySQL's VARCHAR of a String.
const PARAGRAPH =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut ' +
  'labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.'

const lcFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1)

/** The client's delegate of `model` (`prisma.salesOrder`). */
function delegateOf(prisma: PrismaClient, model: Model): Delegate {
  const delegate = (prisma as unknown as Record<string, Delegate | undefined>)[lcFirst(model.name)]
  if (!delegate) throw new Error(`The client has no delegate of ${model.name}`)
  return delegate
}

/** The key of row `row` of the `index`th model, by the kind its default says. */
function keyOf(model: Model, index: number, row: number): string | number {
  const id = model.fields.find((field) => field.isId) as Field
  const made = (id.default as { name?: string } | undefined)?.name
  if (made === 'autoincrement') return row + 1
  if (made === 'uuid') {
    return `7f3e${String(index).padStart(4, '0')}-0c1d-4e5f-8a9b-${String(row).padStart(12, '0')}`
  }
  if (made === 'cuid') return `c${index.toString(36)}${lcFirst(model.name).slice(0, 6)}${row}x`
  const code = model.name.slice(0, 3).toUpperCase()
  return row === 2 ? `${code} ü/${row}` : `${code}-${row}`
}

/** Parents before children: a model after every model its to-one relations lead to. */
function inOrder(models: readonly Model[]): Model[] {
  const byName = new Map(models.map((model) => [model.name, model]))
  const done = new Set<string>()
  const order: Model[] = []
  const visit = (model: Model, path: string[]) => {
    if (done.has(model.name)) return
    if (path.includes(model.name)) throw new Error(`A cycle of relations: ${path.join(' > ')}`)
    for (const field of model.fields) {
      if (field.relationFromFields?.length && field.type !== model.name)
        visit(byName.get(field.type) as Model, [...path, model.name])
    }
    done.add(model.name)
    order.push(model)
  }
  for (const model of models) visit(model, [])
  return order
}

/** A scalar field's value on row `row` (null on some rows when it is optional). */
function scalar(field: Field, enums: Datamodel['enums'], index: number, row: number): unknown {
  if (!field.isRequired && row % 3 === 2) return null
  switch (field.type) {
    case 'String':
      return LONG.has(field.name) ? `${PARAGRAPH} (${row})` : `${field.name} ${index}-${row}`
    case 'Int':
      return (row * 7 + index) % 100
    case 'BigInt':
      return 2n ** 53n + BigInt(row)
    case 'Float':
      return row * 1.5 + 0.25
    case 'Decimal':
      return `${row * 10 + index}.${String((row * 37) % 100).padStart(2, '0')}`
    case 'Boolean':
      return row % 2 === 0
    case 'DateTime':
      return new Date(Date.UTC(2025, 0, 1 + Math.floor(row / 2), index % 24))
  }
  const values = enums.find((candidate) => candidate.name === field.type)?.values ?? []
  const value = values[(row + index) % values.length]
  if (!value) throw new Error(`No value for ${field.name}: ${field.type}`)
  return value.name
}

/** Row `row`'s foreign key on `field`: the parents' first row on every other row. */
function parentRow(field: Field, model: Model, row: number, parents: number): number | null {
  if (field.type === model.name) return row === 0 ? null : row % 2 === 1 ? 0 : row - 1
  if (!field.isRequired && row % 4 === 3) return null
  const unique = model.fields.some(
    (other) => other.isUnique && field.relationFromFields?.includes(other.name)
  )
  if (unique) return row
  return row % 2 === 0 ? 0 : row % parents
}

/** What each model was seeded with: its number of rows and their keys, by the model's name. */
export type Seeded = Map<string, { rows: number; keys: (string | number)[] }>

export async function seedPlatform(prisma: PrismaClient): Promise<Seeded> {
  const { datamodel } = await getDMMF({ datamodel: await readFile(SCHEMA, 'utf8') })
  const index = new Map(datamodel.models.map((model, at) => [model.name, at]))
  const rows = new Map<string, number>()
  for (const model of inOrder(datamodel.models)) {
    const at = index.get(model.name) as number
    const relations = model.fields.filter((field) => field.relationFromFields?.length)
    const keys = new Set(relations.flatMap((field) => field.relationFromFields ?? []))
    let count = 3 + (at % 7)
    for (const field of relations) {
      const unique = model.fields.some(
        (other) => other.isUnique && field.relationFromFields?.includes(other.name)
      )
      if (unique) count = Math.min(count, rows.get(field.type) as number)
    }
    rows.set(model.name, count)
    const data = Array.from({ length: count }, (_, row) => {
      const values: Record<string, unknown> = {}
      for (const field of model.fields) {
        if (field.kind === 'object' || keys.has(field.name)) continue
        values[field.name] = field.isId
          ? keyOf(model, at, row)
          : scalar(field, datamodel.enums, at, row)
      }
      for (const field of relations) {
        const parent = datamodel.models.find((other) => other.name === field.type) as Model
        const parents = rows.get(parent.name) as number
        const which = parentRow(field, model, row, parents)
        const [foreignKey] = field.relationFromFields as [string]
        values[foreignKey] =
          which === null ? null : keyOf(parent, index.get(parent.name) as number, which)
      }
      return values
    })
    await delegateOf(prisma, model).createMany({ data })
  }
  await linkManyToMany(prisma, datamodel, index, rows)
  return new Map(
    datamodel.models.map((model) => {
      const count = rows.get(model.name) as number
      const at = index.get(model.name) as number
      const keys = Array.from({ length: count }, (_, row) => keyOf(model, at, row))
      return [model.name, { rows: count, keys }]
    })
  )
}

/** Each row of an implicit many-to-many relation's first side linked to two of the other's. */
async function linkManyToMany(
  prisma: PrismaClient,
  datamodel: Datamodel,
  index: Map<string, number>,
  rows: Map<string, number>
): Promise<void> {
  for (const model of datamodel.models) {
    const at = index.get(model.name) as number
    for (const field of model.fields) {
      const other = datamodel.models.find((candidate) => candidate.name === field.type)
      const back = other?.fields.find(
        (candidate) => candidate.relationName === field.relationName && candidate !== field
      )
      if (
        !other ||
        !field.isList ||
        !back?.isList ||
        `${model.name}_${field.name}` !== field.relationName
      )
        continue
      const theirs = rows.get(other.name) as number
      const otherAt = index.get(other.name) as number
      for (let row = 0; row < (rows.get(model.name) as number); row++) {
        const linked = [row % theirs, (row + 1) % theirs].map((which) => ({
          id: keyOf(other, otherAt, which),
        }))
        await delegateOf(prisma, model).update({
          where: { id: keyOf(model, at, row) },
          data: { [field.name]: { connect: linked } },
        })
      }
    }
  }
}
