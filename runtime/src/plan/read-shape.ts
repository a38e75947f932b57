/**
 * @module
 * What a read asks of each row it reads: the model's own fields, and the to-one relations read in
 * the same statement, each with the related fields asked (its key first). The plan decides it once
 * per request (data/embedded-scope.ts from the request's `properties[]`, docs/member-shape.md);
 * each engine writes it its own way: the `prisma` engine as a `select` (data/prisma7/where.ts), the
 * `compiled` engine as columns and joins (data/compiled/embeds.ts).
 */

/** A to-one relation read with its row: the relation's field and the related fields asked. */
export interface JoinedRelation {
  /** The relation's field on the row (`author`). */
  readonly relation: string
  /** The related row's fields read. */
  readonly fields: readonly string[]
}

/** The fields a read reads of each row. */
export interface ReadShape {
  /** The model's own fields (its columns). */
  readonly fields: readonly string[]
  /** The to-one relations read with the row; none for most reads. */
  readonly joined: readonly JoinedRelation[]
}

/** The shape of `fields` alone. */
export const fieldsShape = (fields: readonly string[]): ReadShape => ({ fields, joined: [] })

/** Each model's shape, read once from its `select`. */
const modelShapes = new WeakMap<object, ReadShape>()

/**
 * The shape of a model's generated `select` (contract/model-source.ts): each field it reads
 * (`true`), and each to-one link it reads through its relation (`author: { select: { id: true } }`,
 * a link whose key is not a column of the model) as that relation joined with those fields.
 */
export function modelShape(select: Readonly<Record<string, unknown>>): ReadShape {
  let shape = modelShapes.get(select)
  if (!shape) {
    const fields: string[] = []
    const joined: JoinedRelation[] = []
    for (const [name, value] of Object.entries(select)) {
      const nested = typeof value === 'object' && value !== null && Reflect.get(value, 'select')
      if (nested && typeof nested === 'object')
        joined.push({ relation: name, fields: Object.keys(nested) })
      else fields.push(name)
    }
    shape = { fields, joined }
    modelShapes.set(select, shape)
  }
  return shape
}
