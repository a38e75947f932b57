/**
 * @module
 * Reading the change log the generated triggers write (docs/syncing.md): the position of "now",
 * a page of one model's entries after a position, and pruning. Reads stay where nothing can still
 * appear: on PostgreSQL below the watermark, `pg_snapshot_xmin(pg_current_snapshot())`, the
 * oldest transaction still running; on SQLite and MySQL/MariaDB at or below the largest id, since
 * their ids follow commit order. A feed's positions are its own model's entries (markerId): what
 * the others write moves none of its tokens. Pruning removes a prefix of one model's entries and
 * first records its end in that model's marker row (model '', a negative id of its own), so that
 * a reader can tell a token the log no longer covers.
 * The secret that seals the feeds' tokens is kept in the log too (log-secret.ts).
 */
import { isUniqueViolation } from '../../database/unique-violation.js'
import type { ChangePosition } from './change-token.js'
import { jsonOf, LogSql, TABLE } from './log-sql.js'

export type { ChangeLogClient } from './log-sql.js'

/** One entry of the log, as a feed reads it. */
export interface ChangeEntry {
  /** Its position. */
  position: ChangePosition
  /** `insert`, `update` or `delete`. */
  op: string
  /** The row's key by field name. */
  key: Record<string, unknown>
  /** The row's scalar fields before the change (after it for an insert). */
  image: Record<string, unknown>
}

/** A model's name as Prisma allows it: safe inside SQL's strings and JSON's. */
const MODEL_NAME = /^[A-Za-z][A-Za-z0-9_]*$/

/**
 * The id of `model`'s marker row: -1,000 less a 31-bit FNV-1a hash of its name, within a 32-bit
 * column. Two models of one hash share a row, which its `key` names the owner of: the other then
 * prunes nothing (ChangeLog.mark), which loses nothing.
 */
export function markerId(model: string): number {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(model)) hash = Math.imul(hash ^ byte, 0x01000193)
  return -1_000 - ((hash >>> 0) % 2_000_000_000)
}

/** The SQL of a model's name, checked. */
function modelText(model: string): string {
  if (!MODEL_NAME.test(model)) throw new TypeError(`${model}: no model name of a change log`)
  return model
}

/** The log of one database. */
export class ChangeLog extends LogSql {
  /** PostgreSQL's watermark: every transaction below it has ended. */
  private async watermark(): Promise<bigint> {
    const [row] = await this.rows('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS w')
    return BigInt(String(row?.w))
  }

  /**
   * The end of the readable log: a client taking it now misses nothing committed after. Elsewhere
   * than on PostgreSQL, at least every marker's position: pruning may have emptied the log.
   */
  async now(): Promise<ChangePosition> {
    if (this.tx) return { tx: await this.watermark(), id: 0n }
    const [row] = await this.rows(
      `SELECT ${this.text('id')} AS i FROM ${TABLE} WHERE id > 0 ORDER BY id DESC LIMIT 1`
    )
    const [marked] = await this.rows(
      `SELECT ${this.text('tx')} AS t FROM ${TABLE} WHERE id < 0 AND tx IS NOT NULL ORDER BY tx DESC LIMIT 1`
    )
    const last = row === undefined ? 0n : BigInt(String(row.i))
    const pruned = marked === undefined ? 0n : BigInt(String(marked.t))
    return { id: last > pruned ? last : pruned }
  }

  /**
   * The position of `model`'s last entry up to `end`; without one, the end of its pruned entries,
   * or the start of the log: the token of now of its feed, which no other model's write moves.
   */
  async lastOf(model: string, end: ChangePosition): Promise<ChangePosition> {
    const order = this.tx ? 'tx DESC, id DESC' : 'id DESC'
    const [row] = await this.rows(
      `SELECT ${this.text('tx')} AS t, ${this.text('id')} AS i FROM ${TABLE} WHERE ${this.quote('model')} = ${this.place(1)} AND ${this.upTo(end)} ORDER BY ${order} LIMIT 1`,
      model
    )
    if (row !== undefined) return this.positionOf(row.t, row.i)
    return (await this.pruned(model)) ?? (this.tx ? { tx: 0n, id: 0n } : { id: 0n })
  }

  /** SQL of the entries (positive ids) up to `end`, readable there. */
  private upTo(end: ChangePosition): string {
    return this.tx ? `id > 0 AND tx < ${end.tx}` : `tx IS NULL AND id > 0 AND id <= ${end.id}`
  }

  /**
   * The end of the pruned prefix of `model`'s entries, or undefined when none was pruned. Its
   * marker holds it in `tx`: on PostgreSQL the entry's `tx`, with its id in `image.id`; elsewhere
   * its id.
   */
  async pruned(model: string): Promise<ChangePosition | undefined> {
    const [row] = await this.rows(
      `SELECT ${this.text('tx')} AS t, ${this.quote('key')} AS k, ${this.quote('image')} AS image FROM ${TABLE} WHERE id = ${markerId(model)}`
    )
    if (row === undefined || jsonOf(row.k).model !== model) return undefined
    return this.tx ? this.positionOf(row.t, jsonOf(row.image).id) : { id: BigInt(String(row.t)) }
  }

  private positionOf(tx: unknown, id: unknown): ChangePosition {
    return this.tx ? { tx: BigInt(String(tx)), id: BigInt(String(id)) } : { id: BigInt(String(id)) }
  }

  /** Up to `limit` entries of `model` after `after` and up to `end` (a `now()`), in commit order. */
  async page(
    model: string,
    after: ChangePosition,
    limit: number,
    end: ChangePosition
  ): Promise<ChangeEntry[]> {
    const q = this.quote
    const columns = `${this.text('tx')} AS t, ${this.text('id')} AS i, ${q('op')} AS op, ${q('key')} AS k, ${q('image')} AS image`
    // Positions come from a token this module read (digits only) or from the database.
    const past = this.tx
      ? // A row comparison, which the index on (model, tx, id) seeks to; an OR of its parts it scans.
        `(tx, id) > (${after.tx}, ${after.id}) AND id > 0 AND tx < ${end.tx}`
      : // `tx` is null there: naming it lets the same index seek to the token.
        `tx IS NULL AND id > ${after.id} AND id <= ${end.id}`
    const order = this.tx ? 'tx, id' : 'id'
    const rows = await this.rows(
      `SELECT ${columns} FROM ${TABLE} WHERE ${q('model')} = ${this.place(1)} AND ${past} ORDER BY ${order} LIMIT ${limit}`,
      model
    )
    return rows.map((row) => ({
      position: this.positionOf(row.t, row.i),
      op: String(row.op),
      key: jsonOf(row.k),
      image: jsonOf(row.image),
    }))
  }

  /**
   * Removes `model`'s entries written more than `seconds` ago by the database's clock (`at`, in
   * UTC) that are readable (below the watermark), as a prefix of its entries: its end is recorded
   * first, so that a reader that misses an entry pruned after its token sees the marker past it.
   */
  async prune(model: string, seconds: number): Promise<void> {
    const end = await this.now()
    const q = this.quote
    const order = this.tx ? 'tx DESC, id DESC' : 'id DESC'
    const age = Math.floor(seconds)
    // The triggers write `at` in UTC (docs/syncing.md#retention): so is the cutoff, whatever the
    // session's time zone.
    const cutoff =
      this.provider === 'postgresql'
        ? `(now() AT TIME ZONE 'UTC') - make_interval(secs => ${age})`
        : this.provider === 'mysql'
          ? `UTC_TIMESTAMP(3) - INTERVAL ${age} SECOND`
          : `datetime('now', '-${age} seconds')`
    const [last] = await this.rows(
      `SELECT ${this.text('tx')} AS t, ${this.text('id')} AS i FROM ${TABLE} WHERE ${q('model')} = ${this.place(1)} AND ${this.upTo(end)} AND ${q('at')} < ${cutoff} ORDER BY ${order} LIMIT 1`,
      model
    )
    if (last === undefined) return
    const upTo = this.positionOf(last.t, last.i)
    if (!(await this.mark(model, upTo))) return
    const prefix = this.tx
      ? `(tx < ${upTo.tx} OR (tx = ${upTo.tx} AND id <= ${upTo.id}))`
      : `id <= ${upTo.id}`
    await this.client.$executeRawUnsafe(
      `DELETE FROM ${TABLE} WHERE ${q('model')} = ${this.place(1)} AND id > 0 AND ${prefix}`,
      model
    )
  }

  /**
   * Records `upTo` as the end of `model`'s pruned prefix, unless its marker is past it already;
   * false when the marker's row is another model's (their ids' hashes met): nothing is pruned then.
   */
  private async mark(model: string, upTo: ChangePosition): Promise<boolean> {
    const q = this.quote
    const id = markerId(model)
    const tx = this.tx ? upTo.tx : upTo.id
    const image = this.tx ? `'{"id": "${upTo.id}"}'` : `'{}'`
    const owner = `'{"model": "${modelText(model)}"}'`
    const before = this.tx
      ? `(tx < ${upTo.tx} OR (tx = ${upTo.tx} AND CAST(${q('image')}->>'id' AS bigint) < ${upTo.id}))`
      : `tx < ${upTo.id}`
    const update = () =>
      this.client.$executeRawUnsafe(
        `UPDATE ${TABLE} SET tx = ${tx}, ${q('image')} = ${image} WHERE id = ${id} AND ${before}`
      )
    const owned = async () => {
      const [row] = await this.rows(`SELECT ${q('key')} AS k FROM ${TABLE} WHERE id = ${id}`)
      return row === undefined ? undefined : jsonOf(row.k).model === model
    }
    const held = await owned()
    if (held === undefined) {
      try {
        await this.client.$executeRawUnsafe(
          `INSERT INTO ${TABLE} (id, tx, ${q('model')}, ${q('op')}, ${q('key')}, ${q('image')}) VALUES (${id}, ${tx}, '', 'pruned', ${owner}, ${image})`
        )
        return true
      } catch (error) {
        // Another process inserted the marker meanwhile: move it on only if it is before `upTo`.
        // Any other failure leaves the log unmarked: pruning past it would lose the 410.
        if (!isUniqueViolation(error) || (await owned()) === undefined) throw error
      }
    }
    if ((await owned()) !== true) return false
    await update()
    return true
  }
}
