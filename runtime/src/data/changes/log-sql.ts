/**
 * @module
 * The SQL of the change log's table (`hydra_changes`, docs/syncing.md) on each database: its
 * names quoted, its parameters placed, its ids read as text, its rows read through the app's
 * Prisma client.
 */
import { positionsHaveTx } from './change-token.js'

/** What the log is read with: the app's Prisma client. */
export interface ChangeLogClient {
  /** Prisma's raw query. */
  $queryRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>
  /** Prisma's raw statement. */
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>
}

/** The log's table. */
export const TABLE = 'hydra_changes'

/** The log's table on one database, read and written through `client`. */
export class LogSql {
  /** Whether positions carry a transaction id (PostgreSQL). */
  protected readonly tx: boolean
  protected readonly quote: (name: string) => string
  protected readonly place: (index: number) => string

  constructor(
    protected readonly client: ChangeLogClient,
    protected readonly provider: string | undefined
  ) {
    this.tx = positionsHaveTx(provider)
    const mysql = provider === 'mysql'
    this.quote = (name) => (mysql ? `\`${name}\`` : `"${name}"`)
    this.place = (index) => (provider === 'postgresql' ? `$${index}` : '?')
  }

  /** Rows of a query, every value of which the SQL casts to text where it is a number. */
  protected async rows(query: string, ...values: unknown[]): Promise<Record<string, unknown>[]> {
    return (await this.client.$queryRawUnsafe(query, ...values)) as Record<string, unknown>[]
  }

  /** SQL of an id as text. */
  protected text(column: string): string {
    const name = this.quote(column)
    if (this.provider === 'postgresql') return `${name}::text`
    return `CAST(${name} AS ${this.provider === 'mysql' ? 'CHAR' : 'TEXT'})`
  }
}

/** A JSON column's value, as each driver returns it (text or parsed). */
export function jsonOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value
  return (parsed ?? {}) as Record<string, unknown>
}
