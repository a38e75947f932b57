/**
 * @module
 * A position in the change log (docs/syncing.md) and the opaque token a feed's client resumes
 * from: on PostgreSQL the entry's transaction id and its id, `(tx, id)`, in that order; elsewhere
 * the id alone, which follows commit order there. A token is the position sealed (AES-GCM under
 * the log's own key, bound to the feed's model), so that it tells its holder nothing of the log:
 * a plain position would count the writes of every row between two tokens, the caller's or not.
 * A token starts with its key's id, so that a token of a key the log no longer holds is told apart
 * from one that was never sealed.
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
/** AES-GCM's nonce: 96 bits, random for each token. */
const NONCE_BYTES = 12
/** A key's id: the first bytes of its secret's SHA-256. */
const KEY_ID_BYTES = 4
/** A token's letters and length: a position seals to 44 to 95 of them; others are refused unread. */
const TOKEN = /^[A-Za-z0-9_-]{44,128}$/

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

/** The key tokens are sealed with, and its id. */
export interface TokenKey {
  readonly key: CryptoKey
  readonly id: Uint8Array
}

/** The token key of a secret of 32 bytes, as the log keeps it. */
export async function tokenKey(secret: Uint8Array<ArrayBuffer>): Promise<TokenKey> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', secret))
  return {
    key: await crypto.subtle.importKey('raw', secret, 'AES-GCM', false, ['encrypt', 'decrypt']),
    id: digest.subarray(0, KEY_ID_BYTES),
  }
}

/** 32 random bytes: a new key. */
export const newSecret = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(32))

/** The token of `position` in the feed of `model`. */
export async function writeToken(
  { key, id }: TokenKey,
  model: string,
  position: ChangePosition
): Promise<string> {
  const text = position.tx === undefined ? `${position.id}` : `${position.tx}.${position.id}`
  const iv = crypto.getRandomValues(new Uint8Array(NONCE_BYTES))
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(model) },
    key,
    new TextEncoder().encode(text)
  )
  const bytes = new Uint8Array(KEY_ID_BYTES + NONCE_BYTES + sealed.byteLength)
  bytes.set(id)
  bytes.set(iv, KEY_ID_BYTES)
  bytes.set(new Uint8Array(sealed), KEY_ID_BYTES + NONCE_BYTES)
  return Buffer.from(bytes).toString('base64url')
}

/**
 * The position a token of `model`'s feed names; `'other key'` when it is well formed but sealed
 * under a key other than `key` (one the log held before, or none); undefined when it is none this
 * key sealed for that feed (malformed, altered, of another feed, or of another database's form).
 */
export async function readToken(
  { key, id }: TokenKey,
  model: string,
  token: string,
  provider: string | undefined
): Promise<ChangePosition | 'other key' | undefined> {
  if (!TOKEN.test(token)) return undefined
  const bytes = new Uint8Array(Buffer.from(token, 'base64url'))
  // One spelling a token: base64url's unused trailing bits must be those it writes.
  if (Buffer.from(bytes).toString('base64url') !== token) return undefined
  if (!id.every((byte, index) => bytes[index] === byte)) return 'other key'
  let text: string
  try {
    const opened = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: bytes.subarray(KEY_ID_BYTES, KEY_ID_BYTES + NONCE_BYTES),
        additionalData: new TextEncoder().encode(model),
      },
      key,
      bytes.subarray(KEY_ID_BYTES + NONCE_BYTES)
    )
    text = new TextDecoder().decode(opened)
  } catch {
    // The tag did not verify: a token this key did not seal for this feed.
    return undefined
  }
  const parts = text.split('.')
  if (parts.length !== (positionsHaveTx(provider) ? 2 : 1)) return undefined
  if (!parts.every((part) => NUMBER.test(part))) return undefined
  const values = parts.map(BigInt)
  if (values.some((value) => value > MAX)) return undefined
  return values.length === 2
    ? { tx: values[0] as bigint, id: values[1] as bigint }
    : { id: values[0] as bigint }
}
