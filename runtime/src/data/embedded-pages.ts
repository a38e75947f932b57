/**
 * @module
 * The first pages a page's members embed (to-many relations declared embedded with `first`,
 * docs/member-shape.md), read after the page: one statement per member and relation, each
 * within the scope of the sub-collection the page stands for, in the target's key order and
 * limited to `first + 1` rows. Prisma's nested `take` of a `findMany` reads every related row
 * of the page's members and keeps the first ones in memory, so a member with 20,000 related rows
 * would read them all; these statements read at most members x (first + 1) rows, whatever the
 * related rows a member has (`npm run bench:embedding`).
 */
import type { ModelKey } from '../contract/model-source.js'
import { type EmbedRequest, firstPageArgs, relationOf } from '../filters/properties.js'
import { andWhere } from '../filters/settled-where.js'
import { parentWhere } from './parent-condition.js'
import type { PrismaModelReads } from './prisma-engine.js'
import type { ReadRun } from './read-routing.js'

type Where = Record<string, unknown>

/** A to-many relation a request embeds, with the scope of its sub-collection's rows for the caller. */
export interface FirstPage {
  embed: EmbedRequest & { property: { embed: { first: number } } }
  scope: Where | undefined
}

/**
 * The members whose first pages are read: their model's delegate and key, and the scope of the
 * caller's sub-collections' parents (its item scope), with whether a member of the page may be
 * outside it (a collection whose own scope is not that one).
 */
export interface PageParents {
  delegate: string
  key: ModelKey
  scope: Where | undefined
  check: boolean
}

/** The key a member's related rows are tied to: its one field's value, or a composite's fields. */
function keyOf(row: Where, key: ModelKey): unknown {
  if (!key.fields) return row[key.name]
  return Object.fromEntries(key.fields.map(({ name }) => [name, row[name]]))
}

/**
 * The members whose sub-collections the caller may read: every one, or (when some may be outside
 * the caller's item scope, whose sub-collections answer the 404 of a missing parent) those its
 * item scope holds, found in one query.
 */
async function visibleParents(
  rows: readonly Where[],
  parents: PageParents,
  on: ReadRun<PrismaModelReads>
): Promise<(row: Where) => boolean> {
  const { scope, key, delegate } = parents
  if (!scope || !parents.check) return () => true
  const names = key.fields?.map(({ name }) => name) ?? [key.name]
  const identity = (row: Where) => JSON.stringify(names.map((name) => String(row[name])))
  const byKey = key.fields
    ? { OR: rows.map((row) => keyOf(row, key) as Where) }
    : { [key.name]: { in: rows.map((row) => row[key.name]) } }
  const select = Object.fromEntries(names.map((name) => [name, true]))
  const found = await on((reads) =>
    reads.findManyOf(delegate, andWhere(scope, byKey) ?? byKey, select)
  )
  const visible = new Set(found.map((row) => identity(row as Where)))
  return (row) => visible.has(identity(row))
}

/**
 * `rows` with each relation of `pages` holding its first `first + 1` related rows within its
 * scope, read on `on`'s database: the rows a page's query reads without them. A member whose
 * sub-collection the caller may not read keeps its relation unread (written as its IRI).
 */
export async function withFirstPages<Row extends object>(
  rows: Row[],
  pages: readonly FirstPage[],
  parents: PageParents,
  on: ReadRun<PrismaModelReads>
): Promise<Row[]> {
  if (pages.length === 0 || rows.length === 0) return rows
  const { key } = parents
  const visible = await visibleParents(rows as Where[], parents, on)
  const read = await Promise.all(
    pages.map(({ embed, scope }) => {
      const { delegate, condition } = embed.property.embed
      if (!condition)
        throw new TypeError(`${relationOf(embed.property)}: a to-many embed without its condition`)
      const { select, ...window } = firstPageArgs(embed)
      return Promise.all(
        rows.map((row) => {
          if (!visible(row as Where)) return undefined
          const id = keyOf(row as Where, key)
          // The parent's scope too, as the sub-collection's own where holds it.
          const tied = parentWhere({ parent: { key }, condition }, id, parents.scope)
          const where = andWhere(scope, tied) ?? tied
          return on((reads) => reads.findManyOf(delegate, where, select, window))
        })
      )
    })
  )
  return rows.map((row, index) => {
    const filled: Where = { ...(row as Where) }
    for (const [which, { embed }] of pages.entries()) {
      const related = read[which]?.[index]
      if (related) filled[relationOf(embed.property)] = related
    }
    return filled as Row
  })
}
