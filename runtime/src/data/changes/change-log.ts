/**
 * @module
 * Reading the change log the generated triggers write (docs/syncing.md): the position of "now",
 * a page of one model's entries after a position, and pruning. Reads stay where nothing can still
 * appear: on PostgreSQL below the watermark, `pg_snapshot_xmin(pg_current_snapshot())`, the
 * oldest transaction still running; on SQLite and MySQL/MariaDB at or below the largest id, since
 * their ids follow commit order. Pruning removes a prefix of the log and first records its end in
 * a marker row (id -1, model ''), so that a reader can tell a token the log no longer covers.
 * The key that seals the feeds' tokens is kept in the log too (id -2, model ''), so that every
 * instance of the app over the database seals and opens the same tokens.
 */
import { isUniqueViolation } from '../../database/unique-violation.js'
import { type ChangePosition, laterOf, newSecret, positionsHaveTx } from './change-token.js'

/** What the log is read with: the app's Prisma client. */
export interface ChangeLogClient {
  /** Prisma's raw query. */
  $queryRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>
  /** Prisma's raw statement. */
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>
}

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

/** A page of the log, and the position after which nothing can still appear. */
export interface ChangePage {
  entries: ChangeEntry[]
  /** The end of what is readable now: where a client that has read everything resumes. */
  end: ChangePosition
}

const MARKER = -1
const KEY_ROW = -2
const TABLE = 'hydra_changes'

/** The log of one database. */
export class ChangeLog {
  private readonly tx: boolean
  private readonly quote: (name: string) => string
  private readonly place: (index: number) => string

  constructor(
    private readonly client: ChangeLogClient,
    private readonly provider: string | undefined
  ) {
    this.tx = positionsHaveTx(provider)
    const mysql = provider === 'mysql'
    this.quote = (name) => (mysql ? `\`${name}\`` : `"${name}"`)
    this.place = (index) => (provider === 'postgresql' ? `$${index}` : '?')
  }

  /** Rows of a query, every value of which the SQL casts to text where it is a number. */
  private async rows(query: string, ...values: unknown[]): Promise<Record<string, unknown>[]> {
    return (await this.client.$queryRawUnsafe(query, ...values)) as Record<string, unknown>[]
  }

  /** PostgreSQL's watermark: every transaction below it has ended. */
  private async watermark(): Promise<bigint> {
    const [row] = await this.rows('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS w')
    return BigInt(String(row?.w))
  }

  /** SQL of an id as text. */
  private text(column: string): string {
    const name = this.quote(column)
    if (this.provider === 'postgresql') return `${name}::text`
    return `CAST(${name} AS ${this.provider === 'mysql' ? 'CHAR' : 'TEXT'})`
  }

  /** The end of the readable log: a client taking it now misses nothing committed after. */
  async now(): Promise<ChangePosition> {
    if (this.tx) return { tx: await this.watermark(), id: 0n }
    // The marker holds the end of what was pruned: the log may hold nothing after it.
    const [row] = await this.rows(
      `SELECT ${this.text('id')} AS i FROM ${TABLE} ORDER BY id DESC LIMIT 1`
    )
    const last = row === undefined ? 0n : BigInt(String(row.i))
    const pruned = last === BigInt(MARKER) ? await this.pruned() : undefined
    return { id: pruned?.id ?? (last < 0n ? 0n : last) }
  }

  /**
   * The end of the pruned prefix of the log, or undefined when it was never pruned. The marker
   * holds it in `tx`: on PostgreSQL the entry's `tx`, with its id in `image.id`; elsewhere its id.
   */
  async pruned(): Promise<ChangePosition | undefined> {
    const [row] = await this.rows(
      `SELECT ${this.text('tx')} AS t, ${this.quote('image')} AS image FROM ${TABLE} WHERE id = ${MARKER}`
    )
    if (row === undefined) return undefined
    return this.tx ? this.positionOf(row.t, jsonOf(row.image).id) : { id: BigInt(String(row.t)) }
  }

  private positionOf(tx: unknown, id: unknown): ChangePosition {
    return this.tx ? { tx: BigInt(String(tx)), id: BigInt(String(id)) } : { id: BigInt(String(id)) }
  }

  /**
   * The secret that seals this log's tokens, made and kept on first use (an instance that loses
   * the race to insert it reads the winner's). Deleting its row makes every token a `410`; a row
   * that holds no secret (written by hand) is given a new one, with the same effect.
   */
  async secret(): Promise<Uint8Array<ArrayBuffer>> {
    const kept = await this.keptSecret()
    if (kept instanceof Uint8Array) return kept
    const q = this.quote
    // Base64's letters need no escaping in SQL's string or JSON's.
    const image = `'{"key": "${Buffer.from(newSecret()).toString('base64')}"}'`
    if (kept === 'unreadable') {
      await this.client.$executeRawUnsafe(
        `UPDATE ${TABLE} SET ${q('image')} = ${image} WHERE id = ${KEY_ROW}`
      )
      return this.readSecret()
    }
    const insert =
      this.provider === 'postgresql'
        ? 'INSERT'
        : this.provider === 'mysql'
          ? 'INSERT IGNORE'
          : 'INSERT OR IGNORE'
    const conflict = this.provider === 'postgresql' ? ' ON CONFLICT (id) DO NOTHING' : ''
    await this.client.$executeRawUnsafe(
      `${insert} INTO ${TABLE} (id, ${q('model')}, ${q('op')}, ${q('key')}, ${q('image')}) VALUES (${KEY_ROW}, '', 'key', '{}', ${image})${conflict}`
    )
    return this.readSecret()
  }

  /** The secret just written (or another instance's, written meanwhile). */
  private async readSecret(): Promise<Uint8Array<ArrayBuffer>> {
    const stored = await this.keptSecret()
    if (!(stored instanceof Uint8Array))
      throw new Error(`${TABLE}: the row of the tokens' key (id ${KEY_ROW}) holds no key`)
    return stored
  }

  /** The secret the log keeps; none; or `'unreadable'` when its row holds no secret of 32 bytes. */
  private async keptSecret(): Promise<Uint8Array<ArrayBuffer> | 'unreadable' | undefined> {
    const [row] = await this.rows(
      `SELECT ${this.quote('image')} AS image FROM ${TABLE} WHERE id = ${KEY_ROW}`
    )
    if (row === undefined) return undefined
    let key: unknown
    try {
      key = jsonOf(row.image).key
    } catch {
      return 'unreadable'
    }
    const bytes = typeof key === 'string' ? new Uint8Array(Buffer.from(key, 'base64')) : undefined
    return bytes?.length === 32 ? bytes : 'unreadable'
  }

  /**
   * Up to `limit` entries of `model` after `after` and up to `end` (a `now()`), in commit order,
   * and the end a client that has read them all resumes from.
   */
  async page(
    model: string,
    after: ChangePosition,
    limit: number,
    end: ChangePosition
  ): Promise<ChangePage> {
    const q = this.quote
    const columns = `${this.text('tx')} AS t, ${this.text('id')} AS i, ${q('op')} AS op, ${q('key')} AS k, ${q('image')} AS image`
    // Positions come from a token this module read (digits only) or from the database.
    const past = this.tx
      ? // A row comparison, which the index on (model, tx, id) seeks to; an OR of its parts it scans.
        `(tx, id) > (${after.tx}, ${after.id}) AND tx < ${end.tx}`
      : // `tx` is null there: naming it lets the same index seek to the token.
        `tx IS NULL AND id > ${after.id} AND id <= ${end.id}`
    const order = this.tx ? 'tx, id' : 'id'
    const rows = await this.rows(
      `SELECT ${columns} FROM ${TABLE} WHERE ${q('model')} = ${this.place(1)} AND ${past} ORDER BY ${order} LIMIT ${limit}`,
      model
    )
    const entries = rows.map((row) => ({
      position: this.positionOf(row.t, row.i),
      op: String(row.op),
      key: jsonOf(row.k),
      image: jsonOf(row.image),
    }))
    return { entries, end: laterOf(end, after) }
  }

  /**
   * Removes the entries written more than `seconds` ago by the database's clock (`at`, in UTC) that are
   * readable (below the watermark), as a prefix of the log: its end is recorded first, so that a
   * reader that misses an entry pruned after its token sees the marker past that token.
   */
  async prune(seconds: number): Promise<void> {
    const end = await this.now()
    const q = this.quote
    const readable = this.tx ? `tx < ${end.tx}` : `id <= ${end.id}`
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
      `SELECT ${this.text('tx')} AS t, ${this.text('id')} AS i FROM ${TABLE} WHERE id > 0 AND ${q('at')} < ${cutoff} AND ${readable} ORDER BY ${order} LIMIT 1`
    )
    if (last === undefined) return
    const upTo = this.positionOf(last.t, last.i)
    await this.mark(upTo)
    const prefix = this.tx
      ? `(tx < ${upTo.tx} OR (tx = ${upTo.tx} AND id <= ${upTo.id}))`
      : `id <= ${upTo.id}`
    await this.client.$executeRawUnsafe(`DELETE FROM ${TABLE} WHERE id > 0 AND ${prefix}`)
  }

  /** Records `upTo` as the end of the pruned prefix, unless the marker is past it already. */
  private async mark(upTo: ChangePosition): Promise<void> {
    const q = this.quote
    const tx = this.tx ? upTo.tx : upTo.id
    const image = this.tx ? `'{"id": "${upTo.id}"}'` : `'{}'`
    const before = this.tx
      ? `(tx < ${upTo.tx} OR (tx = ${upTo.tx} AND CAST(${q('image')}->>'id' AS bigint) < ${upTo.id}))`
      : `tx < ${upTo.id}`
    const update = () =>
      this.client.$executeRawUnsafe(
        `UPDATE ${TABLE} SET tx = ${tx}, ${q('image')} = ${image} WHERE id = ${MARKER} AND ${before}`
      )
    if (Number(await update()) > 0) return
    if ((await this.pruned()) !== undefined) return
    try {
      await this.client.$executeRawUnsafe(
        `INSERT INTO ${TABLE} (id, tx, ${q('model')}, ${q('op')}, ${q('key')}, ${q('image')}) VALUES (${MARKER}, ${tx}, '', 'pruned', '{}', ${image})`
      )
    } catch (error) {
      // Another process inserted the marker meanwhile: move it on only if it is before `upTo`.
      // Any other failure leaves the log unmarked: pruning past it would lose the 410.
      if (!isUniqueViolation(error)) throw error
      await update()
    }
  }
}

/** A JSON column's value, as each driver returns it (text or parsed). */
function jsonOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value
  return (parsed ?? {}) as Record<string, unknown>
}
