/**
 * @module
 * A position in the change log (docs/syncing.md) and the opaque token a feed's client resumes
 * from: on PostgreSQL the entry's transaction id and its id, `(tx, id)`, in that order; elsewhere
 * the id alone, which follows commit order there. The token is the position's text in base64url;
 * a token is read back only when it is exactly what this module writes for some position.
 */

/** A position in the log: after every entry at or below it. `tx` on PostgreSQL only. */
export interface ChangePosition {
  /** The writing transaction's id (PostgreSQL's `pg_current_xact_id()`). */
  readonly tx?: bigint | undefined
  /** The entry's id. */
  readonly id: bigint
}

/** The largest value of a signed 64-bit column. */
const MAX = 2n ** 63n - 1n
const NUMBER = /^(?:0|[1-9][0-9]{0,18})$/

/** Whether positions of this provider carry a transaction id. */
export const positionsHaveTx = (provider: string | undefined): boolean => provider === 'postgresql'

/** Negative when `a` is before `b`, 0 when the same, positive when after. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  const tx = (a.tx ?? 0n) - (b.tx ?? 0n)
  if (tx !== 0n) return tx < 0n ? -1 : 1
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1
}

/** The later of two positions. */
export const laterOf = (a: ChangePosition, b: ChangePosition): ChangePosition =>
  comparePositions(a, b) >= 0 ? a : b

/** The token of `position`. */
export function writeToken(position: ChangePosition): string {
  const text = position.tx === undefined ? `${position.id}` : `${position.tx}.${position.id}`
  return Buffer.from(text, 'utf8').toString('base64url')
}

/**
 * The position a token names, or undefined when it is none this module writes for `provider`
 * (malformed, of another database's form, or out of a 64-bit column's range).
 */
export function readToken(token: string, provider: string | undefined): ChangePosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined
  const parts = Buffer.from(token, 'base64url').toString('utf8').split('.')
  if (parts.length !== (positionsHaveTx(provider) ? 2 : 1)) return undefined
  if (!parts.every((part) => NUMBER.test(part))) return undefined
  const values = parts.map(BigInt)
  if (values.some((value) => value > MAX)) return undefined
  const position =
    values.length === 2
      ? { tx: values[0] as bigint, id: values[1] as bigint }
      : { id: values[0] as bigint }
  // One spelling a position: a token that decodes to it but is written otherwise is refused.
  return writeToken(position) === token ? position : undefined
}
