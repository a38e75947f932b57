/**
 * @module
 * The `{id}` path parameter of an item (and of a sub-collection's parent): the schema of its key,
 * and for a composite key the form it is written in (docs/hydra.md#identifiers), so that a client
 * reading the document alone can build one.
 */
import type { KeyField } from '../contract/keys.js'
import type { Parameter } from './parameters.js'

/** A value of a key field, as an item IRI writes it, for the example of a composite key. */
function exampleText(field: KeyField): string {
  switch (field.kind) {
    case 'DateTime':
      return '2024-01-31T12%3A00%3A00.000Z'
    case 'Bytes':
      return 'AQID'
    case 'String':
      return field.uuid ? '0190a5c8-3d8a-7c4e-9b5f-2f0e4d1a6b3c' : 'a'
    case 'Enum':
      return field.values?.[0] ?? 'a'
    default:
      return '1'
  }
}

/** The `{id}` of a composite key: its fields as `name=value` joined by `;`, in the key's order. */
function compositeParameter(fields: readonly KeyField[], of: string): Parameter {
  const form = fields.map((field) => `${field.name}={${field.name}}`).join(';')
  return {
    name: 'id',
    in: 'path',
    required: true,
    description:
      `The key of the ${of}, as its IRI writes it: ${form}, each value percent-encoded ` +
      '(as encodeURIComponent does). A client may send it percent-encoded as a whole.',
    schema: {
      type: 'string',
      pattern: `^${fields.map((field) => `${field.name}=[^;]*`).join(';')}$`,
    },
    example: fields.map((field) => `${field.name}=${exampleText(field)}`).join(';'),
  }
}

/**
 * The `{id}` path parameter of items whose key is of `kind` (`fields`: a composite key's, in its
 * order); `of` names what the key is of.
 */
export function idParameter(
  kind: string | undefined,
  of: string,
  fields?: readonly KeyField[] | undefined
): Parameter {
  if (kind === 'Composite' && fields !== undefined && fields.length > 0)
    return compositeParameter(fields, of)
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `The key of the ${of}.`,
    schema:
      kind === 'Int'
        ? { type: 'integer' }
        : kind === 'BigInt'
          ? { type: 'string', pattern: '^-?[0-9]+$' }
          : { type: 'string' },
  }
}
