/**
 * @module
 * The first pages a page's members embed (to-many relations declared embedded with `first`,
 * docs/member-shape.md), read after the page: within the scope of the sub-collection the page
 * stands for, in the target's key order, at most `first + 1` rows a member. Prisma's nested `take`
 * of a `findMany` reads every related row of the page's members and keeps the first ones in
 * memory, so a member with 20,000 related rows would read them all; these statements read at most
 * 2 x members x (first + 1) + 1 rows, whatever the related rows a member has
 * (`npm run bench:embedding`).
 */
import type { ModelKey } from '../contract/model-source.js'
import { type EmbedRequest, firstPageArgs, relationOf } from '../filters/properties.js'
import { allOf, type Condition } from '../plan/condition.js'
import { fieldsShape } from '../plan/read-shape.js'
import { settledPages, togetherRead } from './first-pages-together.js'
import type { HandoffCause } from './keyed-read.js'
import type { ModelReads, RowsRead, TransactionOptions } from './model-reads.js'
import { parentCondition } from './parent-condition.js'
import type { ReadRun } from './read-routing.js'
import { byKeys, keyNames, keyText } from './row-keys.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** A to-many relation a request embeds, with the scope of its sub-collection's rows for the caller. */
export interface FirstPage {
  embed: EmbedRequest & { property: { embed: { first: number } } }
  scope: Condition | undefined
}

/**
 * The members whose first pages are read: their model's delegate and key, and the scope of the
 * caller's sub-collections' parents (its item scope), with whether a member of the page may be
 * outside it (a collection whose own scope is not that one).
 */
export interface PageParents {
  delegate: string
  key: ModelKey
  scope: Condition | undefined
  check: boolean
}

/** The key a member's related rows are tied to: its one field's value, or a composite's fields. */
function keyOf(row: Fields, key: ModelKey): unknown {
  if (!key.fields) return row[key.name]
  return Object.fromEntries(key.fields.map(({ name }) => [name, row[name]]))
}

/**
 * The read of the members whose sub-collections the caller may read, when some may be outside the
 * caller's item scope (their sub-collections answer the 404 of a missing parent); undefined when
 * every one may be read.
 */
function parentsRead(rows: readonly Fields[], parents: PageParents): RowsRead | undefined {
  const { scope, key, delegate } = parents
  if (!scope || !parents.check) return undefined
  const names = keyNames(key)
  const condition = allOf([scope, byKeys(names, rows)]) as Condition
  return { delegate, condition, shape: fieldsShape(names) }
}

/** The read of one member's first page of `page`: tied to the member, within the scopes. */
function pageRead(row: Fields, { embed, scope }: FirstPage, parents: PageParents): RowsRead {
  const { delegate, condition } = embed.property.embed
  const { key } = parents
  const id = keyOf(row, key)
  // A member is read with its key, which writes its @id: without it, the tie would be no condition.
  if (id === undefined || !condition)
    throw new TypeError(`${relationOf(embed.property)}: a first page without its member's key`)
  // The parent's scope too, as the sub-collection's own where holds it.
  const tied = parentCondition({ parent: { key }, condition }, id, parents.scope)
  return { delegate, condition: allOf([scope, tied]) as Condition, ...firstPageArgs(embed) }
}

/**
 * `rows` with each relation of `pages` holding its first `first + 1` related rows within its
 * scope: the rows a page's query reads without them. A relation tied by a foreign key is read for
 * every member in one statement (first-pages-together.ts), the members it leaves unsettled one
 * statement each after it; any other relation one statement a member. Each step is one
 * transaction on `on`'s database (one connection, one snapshot, taken after the page's). A member
 * whose sub-collection the caller may not read keeps its relation unread (written as its IRI).
 */
export async function withFirstPages<Row extends object>(
  rows: Row[],
  pages: readonly FirstPage[],
  parents: PageParents,
  on: ReadRun<ModelReads>,
  options: TransactionOptions,
  handoff?: ((cause: HandoffCause) => void) | undefined
): Promise<Row[]> {
  if (pages.length === 0 || rows.length === 0) return rows
  const members = rows as Fields[]
  const ids = members.map((row) => keyOf(row, parents.key))
  const visibility = parentsRead(members, parents)
  const together = pages.map((page) => {
    const args = firstPageArgs(page.embed)
    return { args, read: togetherRead(page, parents, ids, args) }
  })
  const first = together.flatMap(({ read }) => (read ? [read] : []))
  const answers = await on((engine) =>
    engine.findManyEach(visibility ? [visibility, ...first] : first, options, handoff)
  )
  const identity = keyText(keyNames(parents.key))
  const visible =
    visibility && new Set((answers.shift() ?? []).map((row) => identity(row as Fields)))
  const filled = pages.map((): (Fields[] | undefined)[] => [])
  for (const [which, { args, read }] of together.entries()) {
    if (!read) continue
    const selected = new Set(args.shape.fields)
    const settled = settledPages(read, answers.shift() as Fields[], ids, args.take, selected)
    for (const [index, related] of settled) (filled[which] as Fields[][])[index] = related
  }
  const alone = pages.flatMap((page, which) =>
    members.flatMap((row, index) =>
      filled[which]?.[index] === undefined && (!visible || visible.has(identity(row)))
        ? [{ which, index, read: pageRead(row, page, parents) }]
        : []
    )
  )
  if (alone.length > 0) {
    const read = await on((engine) =>
      engine.findManyEach(
        alone.map(({ read }) => read),
        options,
        handoff
      )
    )
    for (const [at, { which, index }] of alone.entries())
      (filled[which] as Fields[][])[index] = (read[at] ?? []) as Fields[]
  }
  return members.map((row, index) => {
    if (visible && !visible.has(identity(row))) return row as Row
    const written: Fields = { ...row }
    for (const [which, { embed }] of pages.entries())
      written[relationOf(embed.property)] = filled[which]?.[index] ?? []
    return written as Row
  })
}
