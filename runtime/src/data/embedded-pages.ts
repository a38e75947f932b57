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

/** A to-many relation a request embeds, with the scope of its sub-collection for the caller. */
export interface FirstPage {
  embed: EmbedRequest & { property: { embed: { first: number } } }
  scope: Where | undefined
}

/** The key a member's related rows are tied to: its one field's value, or a composite's fields. */
function keyOf(row: Where, key: ModelKey): unknown {
  if (!key.fields) return row[key.name]
  return Object.fromEntries(key.fields.map(({ name }) => [name, row[name]]))
}

/**
 * `rows` with each relation of `pages` holding its first `first + 1` related rows within its
 * scope, read on `on`'s database: the rows a page's query reads without them.
 */
export async function withFirstPages<Row extends object>(
  rows: Row[],
  pages: readonly FirstPage[],
  key: ModelKey,
  on: ReadRun<PrismaModelReads>
): Promise<Row[]> {
  if (pages.length === 0 || rows.length === 0) return rows
  const read = await Promise.all(
    pages.map(({ embed, scope }) => {
      const { delegate, condition } = embed.property.embed
      if (!condition)
        throw new TypeError(`${relationOf(embed.property)}: a to-many embed without its condition`)
      const { select, ...window } = firstPageArgs(embed)
      return Promise.all(
        rows.map((row) => {
          const tied = parentWhere(
            { parent: { key }, condition },
            keyOf(row as Where, key),
            undefined
          )
          const where = andWhere(scope, tied) ?? tied
          return on((reads) => reads.findManyOf(delegate, where, select, window))
        })
      )
    })
  )
  return rows.map((row, index) => {
    const filled: Where = { ...(row as Where) }
    for (const [which, { embed }] of pages.entries())
      filled[relationOf(embed.property)] = read[which]?.[index] ?? []
    return filled as Row
  })
}
