/**
 * @module
 * Fields shown on some rows only (docs/security.md#fields-shown-on-some-rows): a `shownWhere`
 * rule gives, by field, the condition a row must hold for the caller to see that field of it.
 * The compiled engine reads whether each member holds each condition in the member's own
 * statement (a `CASE` column, compiled/sql.ts) and marks it with the fields it shows
 * (SHOWN_ON_ROW); the members another engine read, and the related rows they embed, are checked
 * after them: their keys against each condition, in one query per condition and model on the
 * database the rows were read on, each engine writing the condition in its own language, which
 * reads the values of the fields it shows too. So a field's value and the verdict that shows it
 * always come from one statement. The writers leave out of the member every such field its row
 * is not marked to show, as a hidden field. The database decides, so that a condition means exactly what the
 * same scope means (through relations, case-insensitive modes, a column's collation).
 */
import type { ModelKey } from '../contract/model-source.js'
import {
  OUTSIDE_SCOPE,
  type PropertySelection,
  relationOf,
  SHOWN_ON_ROW,
} from '../filters/properties.js'
import { countKey } from '../paging/totals.js'
import { allOf, type Condition, isNever } from '../plan/condition.js'
import { fieldsShape } from '../plan/read-shape.js'
import type { CallerView, ShownConditions } from './caller-view.js'
import type { HandoffCause } from './keyed-read.js'
import type { ModelReads } from './model-reads.js'
import type { ReadRun } from './read-routing.js'
import { byKeys, keyNames, keyText } from './row-keys.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** The rows of one model a check reads: where they are in a member, and their model. */
interface RowsOfModel {
  /** The relation (a Prisma field) of the member that holds them; undefined: the members. */
  relation?: string | undefined
  delegate: string
  key: readonly string[]
  /** The fields of these rows shown on some rows only, by field. */
  shown: ShownConditions
}

/** The checks of one request's rows: of its members, and of the related rows they embed. */
export interface ShownFieldChecks {
  models: readonly RowsOfModel[]
  /** The members' own fields shown on some rows only: an engine may mark them as it reads them. */
  own: ShownConditions | undefined
  /** Whether a related row the members embed is checked (always after the members are read). */
  related: boolean
}

/**
 * The checks the rows of a request need under the caller's view; undefined when no field it
 * shows is shown on some rows only. `model` is the resource's, `selection` the request's (the
 * relations it embeds, the properties it shows).
 */
export function shownFieldChecks(
  model: { delegate: string; key: ModelKey },
  selection: PropertySelection | undefined,
  view: CallerView
): ShownFieldChecks | undefined {
  const models: RowsOfModel[] = []
  const own = selected(view.shownWhere, selection?.names)
  if (own.size > 0) models.push({ delegate: model.delegate, key: keyNames(model.key), shown: own })
  for (const embed of selection?.embeds.values() ?? []) {
    const { model: related, delegate, key } = embed.property.embed
    const shown = selected(view.shownWhereOf(related), new Set(embed.fields))
    if (shown.size > 0) models.push({ relation: relationOf(embed.property), delegate, key, shown })
  }
  if (models.length === 0) return undefined
  const related = models.some(({ relation }) => relation !== undefined)
  return { models, own: own.size > 0 ? own : undefined, related }
}

/** The conditions of the fields `names` shows (undefined: every field). */
function selected(shown: ShownConditions, names: ReadonlySet<string> | undefined): ShownConditions {
  if (!names || shown.size === 0) return shown
  return new Map([...shown].filter(([field]) => names.has(field)))
}

/**
 * `rows` with each row marked with the fields it shows the caller (SHOWN_ON_ROW): its own, and
 * those of the related rows it embeds (a to-one relation's row, a first page's rows). One query
 * per model and distinct condition, on `on`'s database, reading the keys of the rows that hold
 * the condition and the values of its fields: a field shown carries the value the statement that
 * decided it read, whatever a write did between the rows' read and it.
 */
export async function withShownFields<Row extends object>(
  rows: Row[],
  checks: ShownFieldChecks,
  on: ReadRun<ModelReads>,
  handoff?: ((cause: HandoffCause) => void) | undefined
): Promise<Row[]> {
  /** By row checked: the fields it shows, with the values the check read of them. */
  const shown = new Map<Fields, { fields: Set<string>; values: Fields }>()
  for (const model of checks.models) {
    // Members an engine marked as it read them (FindManyArgs' `shown`) are not read again.
    const found = rowsOf(rows as Fields[], model.relation).filter(
      (row) => model.relation !== undefined || !(SHOWN_ON_ROW in row)
    )
    for (const [condition, fields] of byCondition(model.shown)) {
      const holding = found.filter((row) => fields.some((field) => field in row))
      if (holding.length === 0) continue
      const values = await rowsHolding(holding, model, condition, fields, on, handoff)
      // Every row checked is marked, with none of the fields where it shows none: a row no check
      // marked shows none of them (a custom data provider's, member-shape.ts).
      for (const row of holding) {
        const mark = shown.get(row) ?? { fields: new Set<string>(), values: {} }
        const read = values(row)
        if (read)
          for (const field of fields) {
            mark.fields.add(field)
            mark.values[field] = read[field]
          }
        shown.set(row, mark)
      }
    }
  }
  if (shown.size === 0) return rows
  const marked = (row: Fields): Fields => {
    const mark = shown.get(row)
    return mark ? { ...row, ...mark.values, [SHOWN_ON_ROW]: mark.fields } : row
  }
  return (rows as Fields[]).map((row) => {
    // A copy of the member (never the row read) where it or a row it embeds is marked.
    const written: Fields = { ...marked(row) }
    for (const { relation } of checks.models) {
      if (relation === undefined) continue
      const value = row[relation]
      if (Array.isArray(value)) written[relation] = value.map((item) => marked(item as Fields))
      else if (value && typeof value === 'object') written[relation] = marked(value as Fields)
    }
    return written
  }) as Row[]
}

/** The rows of a model in the members: the members themselves, or the related rows they embed. */
function rowsOf(members: readonly Fields[], relation: string | undefined): Fields[] {
  if (relation === undefined) return [...members]
  return members.flatMap((member) => {
    const value = member[relation]
    const related = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : []
    // A related row outside the caller's scope keeps only its key, written as its IRI.
    return (related as Fields[]).filter((row) => !(OUTSIDE_SCOPE in row))
  })
}

/** The fields of `shown` grouped by their condition (one query each), conditions read alike. */
function byCondition(shown: ShownConditions): [Condition, string[]][] {
  const groups = new Map<string, [Condition, string[]]>()
  for (const [field, condition] of shown) {
    const key = countKey(condition)
    const group = groups.get(key)
    if (group) group[1].push(field)
    else groups.set(key, [condition, [field]])
  }
  return [...groups.values()]
}

/**
 * The rows of `rows` that hold `condition`, with the values of `fields`, read by their keys in one
 * query: of a row, its values there, or undefined when it does not hold it.
 */
async function rowsHolding(
  rows: readonly Fields[],
  model: RowsOfModel,
  condition: Condition,
  fields: readonly string[],
  on: ReadRun<ModelReads>,
  handoff: ((cause: HandoffCause) => void) | undefined
): Promise<(row: Fields) => Fields | undefined> {
  if (isNever(condition)) return () => undefined
  const { delegate, key } = model
  const where = allOf([condition, byKeys(key, rows)]) as Condition
  const shape = fieldsShape([...new Set([...key, ...fields])])
  const found = await on((reads) => reads.findManyOf(delegate, where, shape, handoff))
  const identity = keyText(key)
  const holding = new Map(found.map((row) => [identity(row as Fields), row as Fields]))
  return (row) => holding.get(identity(row))
}
