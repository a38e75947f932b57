/**
 * @module
 * The first pages of a to-many relation tied by a foreign key, read for every member of a page in
 * one statement: the related rows of all the members, in the foreign key's order and then the
 * target's key order, limited to members x (`first` + 1) + 1 rows. Prisma's reads cannot number
 * rows per member (no window function), so the limit is shared: the statement settles each
 * member whose rows it read to the end (a later member's rows follow them) or up to `first` + 1;
 * a member it may have cut short (its rows ran to the limit) is left to a read of its own. Read
 * alone, every member costs a statement; together, a page whose members have a few related rows
 * each costs one, and one heavy member costs at most the limit more than reading each alone. The
 * compiled engine limits each member's rows apart (the read's `each`) and settles every member at
 * once.
 */
import type { ModelKey } from '../contract/model-source.js'
import type { OrderField } from '../contract/order.js'
import type { EmbedRequest } from '../filters/properties.js'
import { allOf, type Condition, onField, throughRelation } from '../plan/condition.js'
import { fieldsShape, type ReadShape } from '../plan/read-shape.js'
import type { RowsRead } from './model-reads.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** A to-many relation a page embeds, and the scope of its sub-collection's rows for the caller. */
interface RelationPage {
  embed: EmbedRequest
  scope: Condition | undefined
}
/** The page's members: their key, and the caller's scope of them. */
interface Members {
  key: ModelKey
  scope: Condition | undefined
}

/** The statement reading `ids`' first pages of `page` together, or undefined when it cannot. */
export function togetherRead(
  page: RelationPage,
  parents: Members,
  ids: readonly unknown[],
  args: { shape: ReadShape; order: OrderField[]; take: number }
): RowsRead | undefined {
  const embedded = page.embed.property.embed
  if (!embedded) return undefined
  const { delegate, condition } = embedded
  // Only a foreign key orders the rows member by member; a composite key has no one column. A
  // member without its key is refused by the read of its own (embedded-pages.ts).
  if (condition?.kind !== 'column' || parents.key.fields) return undefined
  if (ids.some((id) => id === undefined)) return undefined
  const tie = onField(condition.field, { op: 'in', values: [...ids] })
  const tied =
    parents.scope && condition.relation !== undefined
      ? allOf([tie, throughRelation(condition.relation, 'is', parents.scope)])
      : tie
  return {
    delegate,
    condition: allOf([page.scope, tied]) as Condition,
    shape: fieldsShape([...new Set([...args.shape.fields, condition.field])]),
    order: [{ field: condition.field, direction: 'asc' }, ...args.order],
    take: ids.length * args.take + 1,
    each: { values: ids, take: args.take },
  }
}

/**
 * Each member's first page from the rows `read` together (`take` a member at most), by member
 * index; a member missing from the answer is one the statement may have cut short.
 */
export function settledPages(
  read: RowsRead,
  rows: readonly Fields[],
  ids: readonly unknown[],
  take: number,
  selected: ReadonlySet<string>
): Map<number, Fields[]> {
  const field = read.order?.[0]?.field as string
  const groups = new Map<string, Fields[]>()
  for (const row of rows) {
    const at = String(row[field])
    const group = groups.get(at) ?? []
    group.push(selected.has(field) ? row : withoutField(row, field))
    groups.set(at, group)
  }
  // Rows short of the limit are every row of every member; otherwise the last member read may
  // have more, and so may every member after it, which the limit left out.
  const whole = read.take === undefined || rows.length < read.take
  const last = rows.length > 0 ? String(rows[rows.length - 1]?.[field]) : undefined
  const settled = new Map<number, Fields[]>()
  for (const [index, id] of ids.entries()) {
    const group = groups.get(String(id))
    if (whole || (group && (group.length >= take || String(id) !== last))) {
      settled.set(index, (group ?? []).slice(0, take))
    }
  }
  return settled
}

function withoutField(row: Fields, field: string): Fields {
  const { [field]: _tie, ...rest } = row
  return rest
}
