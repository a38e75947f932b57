/**
 * @module
 * A position in the change log (docs/syncing.md) and the opaque token a feed's client resumes
 * from: on PostgreSQL the entry's transaction id and its id, `(tx, id)`, in that order; elsewhere
 * the id alone, which follows commit order there. A token is the position sealed, so that it tells
 * its holder nothing of the log: a plain position would count the writes of every row between two
 * tokens, the caller's or not. It is sealed with AES-GCM under a key of its own, derived with HKDF
 * from the log's secret and a random salt the token carries (one key per token: no nonce is ever
 * used twice under a key, however many tokens the secret seals), bound to the feed's model, the
 * position in fixed-width bytes (its length tells nothing either). It starts with its secret's id,
 * so that a token of a secret the log no longer holds is told apart from one never sealed.
 * Sealed for a caller who is told of every row of the model, a token is the same each time its
 * position is sealed (its salt an HMAC of the position): callers at one position then ask one URL,
 * which a shared cache keeps for them all; it tells them only that no entry came, which the
 * feed tells them too. For any other caller the salt is random.
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
/** A secret's id: the first bytes of its SHA-256. */
const KEY_ID_BYTES = 4
/** The salt each token's key is derived with. */
const SALT_BYTES = 16
/** The nonce: zeros, each key sealing one token only. */
const NONCE = new Uint8Array(12)
/** What each key derivation is for. */
const INFO = new TextEncoder().encode('prisma-hydra change token')
const SALT_INFO = new TextEncoder().encode('prisma-hydra change token salt')
/** A token's letters and length: a position seals to 59 or 70 of them; others are refused unread. */
const TOKEN = /^[A-Za-z0-9_-]{59,70}$/

/** Whether positions of this provider carry a transaction id. */
export const positionsHaveTx = (provider: string | undefined): boolean => provider === 'postgresql'

/** Negative when `a` is before `b`, 0 when the same, positive when after. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  const tx = (a.tx ?? 0n) - (b.tx ?? 0n)
  if (tx !== 0n) return tx < 0n ? -1 : 1
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1
}

/** The secret tokens are sealed under, ready for deriving keys, and its id. */
export interface TokenKey {
  readonly secret: CryptoKey
  /** The HMAC key of the salts of tokens that are the same for each sealing of a position. */
  readonly salts: CryptoKey
  readonly id: Uint8Array
}

/** The token key of a secret of 32 bytes, as the log keeps it. */
export async function tokenKey(secret: Uint8Array<ArrayBuffer>): Promise<TokenKey> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', secret))
  const derived = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey'])
  const salts = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: SALT_INFO },
    derived,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign']
  )
  return { secret: derived, salts, id: digest.subarray(0, KEY_ID_BYTES) }
}

/** 32 random bytes: a new secret. */
export const newSecret = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(32))

/** The AES-GCM key of one token, from the secret and the token's salt. */
const sealingKey = (secret: CryptoKey, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> =>
  crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: INFO },
    secret,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt']
  )

const algorithm = (model: string) => ({
  name: 'AES-GCM',
  iv: NONCE,
  additionalData: new TextEncoder().encode(model),
})

/**
 * The token of `position` in the feed of `model`; `same`: the same token each time (for a caller
 * told of every row of the model), else a new one each time.
 */
export async function writeToken(
  { secret, salts, id }: TokenKey,
  model: string,
  position: ChangePosition,
  same = false
): Promise<string> {
  const plain = new Uint8Array(position.tx === undefined ? 8 : 16)
  const view = new DataView(plain.buffer)
  if (position.tx === undefined) view.setBigUint64(0, position.id)
  else {
    view.setBigUint64(0, position.tx)
    view.setBigUint64(8, position.id)
  }
  const salt = same
    ? new Uint8Array(
        (
          await crypto.subtle.sign(
            'HMAC',
            salts,
            new Uint8Array([...new TextEncoder().encode(`${model}\n`), ...plain])
          )
        ).slice(0, SALT_BYTES)
      )
    : crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const sealed = await crypto.subtle.encrypt(
    algorithm(model),
    await sealingKey(secret, salt),
    plain
  )
  const bytes = new Uint8Array(KEY_ID_BYTES + SALT_BYTES + sealed.byteLength)
  bytes.set(id)
  bytes.set(salt, KEY_ID_BYTES)
  bytes.set(new Uint8Array(sealed), KEY_ID_BYTES + SALT_BYTES)
  return Buffer.from(bytes).toString('base64url')
}

/**
 * The position a token of `model`'s feed names; `'other key'` when it has a token's form but
 * names a secret other than `key`'s (one the log held before, or none: the id is not secret, and
 * anything of a token's form may name one); undefined when it is none this key sealed for that
 * feed (malformed, altered, of another feed, or of another database's form).
 */
export async function readToken(
  { secret, id }: TokenKey,
  model: string,
  token: string,
  provider: string | undefined
): Promise<ChangePosition | 'other key' | undefined> {
  if (!TOKEN.test(token)) return undefined
  const bytes = new Uint8Array(Buffer.from(token, 'base64url'))
  // One spelling a token: base64url's unused trailing bits must be those it writes.
  if (Buffer.from(bytes).toString('base64url') !== token) return undefined
  const width = positionsHaveTx(provider) ? 16 : 8
  if (bytes.length !== KEY_ID_BYTES + SALT_BYTES + width + 16) return undefined
  if (!id.every((byte, index) => bytes[index] === byte)) return 'other key'
  let plain: DataView
  try {
    const salt = bytes.slice(KEY_ID_BYTES, KEY_ID_BYTES + SALT_BYTES)
    const opened = await crypto.subtle.decrypt(
      algorithm(model),
      await sealingKey(secret, salt),
      bytes.subarray(KEY_ID_BYTES + SALT_BYTES)
    )
    plain = new DataView(opened)
  } catch {
    // The tag did not verify: a token this key did not seal for this feed.
    return undefined
  }
  const values =
    width === 16 ? [plain.getBigUint64(0), plain.getBigUint64(8)] : [plain.getBigUint64(0)]
  if (values.some((value) => value > MAX)) return undefined
  return values.length === 2
    ? { tx: values[0] as bigint, id: values[1] as bigint }
    : { id: values[0] as bigint }
}
