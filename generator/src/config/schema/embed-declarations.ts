/**
 * @module
 * What the `@property` lines of a relation field declare embedded (docs/member-shape.md, "Declared
 * embeds"): each line's `embed: [...]` fields, its `first` cap (a to-many relation) and the
 * operations it is limited to (`operations: [collection, item]`; none: every operation not named
 * by another line). A field may carry several lines, one embed each, so that one operation shows
 * more of the related item than another; two lines for every operation, or two naming the same
 * operation, are refused. The names are checked against the model's operations once every
 * resource is resolved (config/embed-operations.ts), the fields against the related model once
 * every model is read (filters/declared-embeds.ts).
 */
import type { AnnotationValue } from '../../annotations/parse.js'
import { type Report, show } from '../../problems.js'

/** One `@property(embed: [...])` line of a relation field. */
export interface EmbedDeclaration {
  /** The related model's fields it shows, in its order. */
  readonly fields: readonly string[]
  /**
   * `first: 3`: a to-many relation's cap (checked against its kind later); null when given but
   * refused (reported), so that the line is not also reported as one without a cap.
   */
  readonly first?: number | null | undefined
  /** `operations: [...]`: the operations it is limited to; undefined: every other one. */
  readonly operations?: readonly string[] | undefined
}

/** The most related items a to-many relation declared embedded may show (`first`). */
export const MAX_EMBEDDED_FIRST = 100

/** A field name as an embed names it. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/**
 * An operation's name as `operations` names it: `collection`, an `@operation`'s name, `item`, or
 * a sub-collection as its parent model and link name (`Book.loans`).
 */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)?$/

/**
 * The embeds a field's `@property` lines declare (each line's options as read), with the misuses
 * of each line and those between lines reported.
 */
export function readEmbedDeclarations(
  lines: readonly ReadonlyMap<string, AnnotationValue>[],
  relation: boolean,
  report: Report
): EmbedDeclaration[] {
  const declarations: EmbedDeclaration[] = []
  for (const args of lines) {
    const fields = readEmbed(args.get('embed'), relation, report)
    const first = readFirst(args.get('first'), fields !== undefined, report)
    // Beside an embed that is refused, `operations` is still read (its own problems reported).
    const operations = readOperations(args.get('operations'), args.has('embed'), report)
    if (!fields) continue
    declarations.push({
      fields,
      ...(first !== undefined ? { first } : {}),
      ...(operations ? { operations } : {}),
    })
  }
  checkOverlaps(declarations, report)
  return declarations
}

/** Two lines for every operation, or one operation named by two lines: which one applies? */
function checkOverlaps(declarations: readonly EmbedDeclaration[], report: Report): void {
  const everywhere = declarations.filter((declaration) => !declaration.operations)
  if (everywhere.length > 1)
    report({
      source: '@property',
      option: 'embed',
      message: `is declared for every operation by ${everywhere.length} lines: give each line but one the operations it applies to (operations: [item]); the line without them applies to every operation the others do not name`,
    })
  const named = new Map<string, number>()
  for (const [index, declaration] of declarations.entries())
    for (const name of declaration.operations ?? []) {
      const earlier = named.get(name)
      if (earlier === undefined) named.set(name, index)
      else
        report({
          source: '@property',
          option: 'operations',
          message: `operation "${name}" is named by two @property(embed: ...) lines (embed: [${declarations[earlier]?.fields.join(', ')}] and embed: [${declaration.fields.join(', ')}]): one declaration per operation`,
        })
    }
}

/**
 * `embed: [name, country]`: relations only, a list of at least one field name (each is checked
 * against the related model once every model is read: filters/declared-embeds.ts).
 */
function readEmbed(
  value: AnnotationValue | undefined,
  relation: boolean,
  report: Report
): string[] | undefined {
  if (value === undefined) return undefined
  const message = !relation
    ? 'embeds relations only: a scalar field has no related item to embed'
    : !Array.isArray(value) ||
        value.length === 0 ||
        value.some((name) => typeof name !== 'string' || !FIELD_NAME.test(name))
      ? `must be a list of the related model's field names (embed: [name]), got ${show(value)}`
      : undefined
  if (message === undefined) return value as string[]
  report({ source: '@property', option: 'embed', message })
  return undefined
}

/**
 * `first: 3`: a whole number from 1 to `MAX_EMBEDDED_FIRST`, beside `embed` only (whether the
 * relation is to-many is checked with its link: filters/declared-embeds.ts).
 */
function readFirst(
  value: AnnotationValue | undefined,
  embeds: boolean,
  report: Report
): number | null | undefined {
  if (value === undefined) return undefined
  const message = !embeds
    ? 'caps a to-many relation declared embedded; write it beside embed: @property(embed: [name], first: 3)'
    : typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 1 ||
        value > MAX_EMBEDDED_FIRST
      ? `must be a whole number from 1 to ${MAX_EMBEDDED_FIRST} (the related items shown), got ${show(value)}`
      : undefined
  if (message === undefined) return value as number
  report({ source: '@property', option: 'first', message })
  return null
}

/** `operations: [collection, item]`: beside `embed` only, a list of distinct operation names. */
function readOperations(
  value: AnnotationValue | undefined,
  embeds: boolean,
  report: Report
): string[] | undefined {
  if (value === undefined) return undefined
  const names = Array.isArray(value) ? value : []
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  const message = !embeds
    ? 'limits an embed to some operations; write it beside embed: @property(embed: [name], operations: [item])'
    : !Array.isArray(value) ||
        value.length === 0 ||
        value.some((name) => typeof name !== 'string' || !OPERATION_NAME.test(name))
      ? `must be a list of the model's operation names (collection, an @operation's name, item, or a sub-collection as Parent.link), got ${show(value)}`
      : repeated !== undefined
        ? `names operation "${String(repeated)}" twice`
        : undefined
  if (message === undefined) return value as string[]
  report({ source: '@property', option: 'operations', message })
  return undefined
}
