/**
 * @module
 * The secret that seals the feeds' tokens (change-token.ts, docs/syncing.md#the-token), kept in
 * the change log itself, in the row whose id is -2 (model ''), so that every instance of the app
 * over the database seals and opens the same tokens: made on first use, read back after, made
 * anew when its row holds none.
 */
import { newSecret } from './change-token.js'
import { jsonOf, LogSql, TABLE } from './log-sql.js'

/** The id of the secret's row. */
const KEY_ROW = -2

/** The secret of one database's log. */
export class LogSecret extends LogSql {
  /**
   * The secret that seals this log's tokens, made and kept on first use (an instance that loses
   * the race to insert it reads the winner's). Deleting its row makes every token a `410`; a row
   * that holds no secret (written by hand) is given a new one, with the same effect.
   */
  async read(): Promise<Uint8Array<ArrayBuffer>> {
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
}
