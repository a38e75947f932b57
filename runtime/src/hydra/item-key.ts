/**
 * @module
 * Item keys in IRIs (docs/hydra.md#identifiers): how a row's key is written as the last segment of
 * its item IRI, and how a segment a client sent is read back. Every key is written one way only,
 * and only that form is read back: any other text names no item (a 404 without a query).
 *
 * - A single key is its value as text, percent-encoded (`/books/12`, `/snapshots/2024-01-31T12%3A00%3A00.000Z`);
 *   a key whose text is `.` or `..` would be a dot segment, which clients and servers remove from
 *   paths (`%2E%2E` too, under the WHATWG URL rules), so it is written with its field's name:
 *   `/users/id=..`.
 * - A composite key is every field as `name=value`, joined by `;`, in the key's order: API
 *   Platform's form (`/order-lines/orderId=3;productId=7`). It is also read percent-encoded as a
 *   whole (`orderId%3D3%3BproductId%3D7`), as clients that encode a path parameter with
 *   `encodeURIComponent` send it (openapi-fetch); links keep the first form.
 */

import {
  type IdKind,
  type IdValue,
  type KeyField,
  type KeySpec,
  keyFields,
} from '../contract/keys.js'
import { rangesOf } from '../database/dialects.js'
import { readColumnValue } from '../values/column-value.js'
import { isKeyText, keyText } from '../values/key-text.js'

const DOT_SEGMENT = /^\.\.?$/

/** The IRI segment of a row's key: read from the row's columns by the key's fields. */
export function keySegment(key: KeySpec, row: Record<string, unknown>): string {
  if (key.kind !== 'Composite') return singleSegment(key as KeyField, row[key.name])
  return keyFields(key)
    .map((field) => `${field.name}=${encodeURIComponent(keyText(field.kind, row[field.name]))}`)
    .join(';')
}

/** The IRI segment of one key value (a single key, or a foreign key to one). */
export function singleSegment(field: KeyField, value: unknown): string {
  const text = encodeURIComponent(keyText(field.kind, value))
  return DOT_SEGMENT.test(text) ? `${field.name}=${text}` : text
}

/**
 * The key a path segment names, or undefined when it names none. `segment` is the path's segment
 * as Hono's `c.req.path` has it (decoded, except for reserved characters: an encoded `;` or `=` of
 * a value is still encoded there, so it never splits a composite key). A composite key's segment
 * without any `=` is the key encoded as a whole: decoded once, it is the written form (a value's
 * own `%3B` was sent as `%253B`). The written form always holds an `=`, so the two never overlap.
 */
export function readKeySegment<K extends IdKind>(
  key: KeySpec<K>,
  segment: string,
  provider: string | undefined
): IdValue<K> | undefined {
  if (key.kind !== 'Composite') {
    const field = key as KeyField
    const named = segment.startsWith(`${field.name}=`)
    const text = decoded(named ? segment.slice(field.name.length + 1) : segment)
    // The named form is written for dot segments only: one form per key.
    if (text === undefined || named !== DOT_SEGMENT.test(text)) return undefined
    return readKeyText(field, text, provider) as IdValue<K> | undefined
  }
  const fields = keyFields(key)
  const written = segment.includes('=') ? segment : decoded(segment)
  if (written === undefined) return undefined
  const parts = written.split(';')
  if (parts.length !== fields.length) return undefined
  const value: Record<string, unknown> = {}
  for (const [index, field] of fields.entries()) {
    const part = parts[index] as string
    if (!part.startsWith(`${field.name}=`)) return undefined
    const text = decoded(part.slice(field.name.length + 1))
    const read = text === undefined ? undefined : readKeyText(field, text, provider)
    if (read === undefined) return undefined
    value[field.name] = read
  }
  return value as IdValue<K>
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/

/**
 * One key field's value from its text, or undefined when no row can have it: not a value the
 * database of `provider` stores in the column (`readColumnValue`), not one of an enum's values,
 * or not written the way IRIs write it (`/books/01` is not `/books/1`).
 */
export function readKeyText(
  field: KeyField,
  text: string,
  provider: string | undefined
): unknown | undefined {
  if (field.kind === 'Bytes') {
    if (!BASE64URL.test(text)) return undefined
    const bytes = Buffer.from(text, 'base64url')
    return bytes.toString('base64url') === text ? new Uint8Array(bytes) : undefined
  }
  if (field.values && !field.values.includes(text)) return undefined
  const type = field.kind === 'Enum' ? 'String' : field.kind
  const read = readColumnValue({ type, uuid: field.uuid }, text, rangesOf(provider))
  if (!read.ok || !isKeyText({ type, uuid: field.uuid }, text, read.value)) return undefined
  return read.value
}
