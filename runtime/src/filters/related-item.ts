/**
 * Reads the related item a relation filter names (`author=/authors/3`, `author=3`,
 * `line=/order-lines/orderId=3;productId=7`), and the items `id[]` names: an IRI under the mount
 * path, or a key as the IRI writes it, read as the key's types. Only the spelling the item's IRI
 * writes names it (docs/hydra.md#identifiers): `03`, a date-time without its milliseconds or an
 * upper-case `@db.Uuid` names no item at its IRI, and is refused here too, before any query, so
 * that no database reads it as the item (an integer column takes `03` for 3, PostgreSQL's uuid
 * type ignores case).
 */

import type { RelatedKeyField, RelationTarget, ValueType } from '../contract/query.js'
import { isKeyText } from '../values/key-text.js'
import { fail, readValue } from './read-value.js'

/** A related item's id from its IRI or the id itself; a composite key's fields by name. */
export function readRelated(
  relation: RelationTarget,
  raw: string,
  parameter: string,
  base: string,
  database: string | undefined
): unknown {
  const prefix = `${base}${relation.collectionPath}/`
  const iri = raw.startsWith('/')
  const rest = iri && raw.startsWith(prefix) ? raw.slice(prefix.length) : raw
  if (iri && (rest === raw || rest === '' || rest.includes('/') || rest.includes('?')))
    fail(parameter, `an IRI of ${prefix}… or an id`, raw)
  if (relation.key) return readCompositeKey(relation.key, rest, parameter, prefix, raw, database)
  // An IRI's segment is percent-encoded; a bare id is read as it is.
  const id = iri ? decoded(rest) : raw
  if (id === undefined) fail(parameter, `an IRI of ${prefix}… or an id`, raw)
  const value = readValue({ ...relation.id, field: relation.foreignKey }, id, parameter, database)
  return written(relation.id, id, value, parameter, `an IRI of ${prefix}… or an id`, raw)
}

/** `value`, read from `text`, when `text` is how IRIs write it; a 400 naming `expected` if not. */
function written(
  type: ValueType,
  text: string,
  value: unknown,
  parameter: string,
  expected: string,
  raw: string
): unknown {
  if (!isKeyText(type, text, value))
    fail(parameter, `${expected}, written as its IRI writes it`, raw)
  return value
}

/**
 * A composite key written as its IRIs write it: every field as `name=value` (the value
 * percent-encoded), in the key's order, joined by `;`.
 */
function readCompositeKey(
  fields: readonly RelatedKeyField[],
  segment: string,
  parameter: string,
  prefix: string,
  raw: string,
  database: string | undefined
): Record<string, unknown> {
  const shape = fields.map((field) => `${field.name}=…`).join(';')
  const parts = segment.split(';')
  if (parts.length !== fields.length)
    fail(parameter, `an IRI of ${prefix}${shape} or a key ${shape}`, raw)
  const key: Record<string, unknown> = {}
  for (const [index, field] of fields.entries()) {
    const part = parts[index] as string
    const text = part.startsWith(`${field.name}=`)
      ? decoded(part.slice(field.name.length + 1))
      : undefined
    if (text === undefined) fail(parameter, `an IRI of ${prefix}${shape} or a key ${shape}`, raw)
    const value = readValue({ ...field, field: field.name }, text, parameter, database)
    const expected = `an IRI of ${prefix}${shape} or a key ${shape}`
    key[field.name] = written(field, text, value, parameter, expected, raw)
  }
  return key
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
