/**
 * @module
 * The embedded relations a caller may see (docs/security.md, "Embedded relations"): Prisma's
 * nested `select` of a to-one relation takes no `where`, so the related rows of a page are read
 * with it whatever the related model's scope. Where a scope applies to the caller, the keys of
 * the page's related rows are checked against it in one query per page (or per batch of a
 * stream), never one per member; a row outside it keeps only its key, marked `OUTSIDE_SCOPE`,
 * and is written as the link's IRI. A guard refusing the related model is "no row": nothing is
 * embedded, and nothing is queried. A to-many relation shows the first page of its
 * sub-collection (embedded-pages.ts), read within the scope that sub-collection's route applies
 * (its model's main collection rules, caller-view.ts); a guard refusing that route leaves the
 * relation unread, its IRI shown. Fields shown on some rows only, of the rows or of the related
 * rows they embed, are checked after them (shown-fields.ts), so a request that embeds nothing may
 * still restrict its rows.
 */
import type { ModelSource } from '../contract/model-source.js'
import {
  type EmbedRequest,
  embeddingShape,
  OUTSIDE_SCOPE,
  type PropertySelection,
  relationOf,
} from '../filters/properties.js'
import { countKey } from '../paging/totals.js'
import { allOf, type Condition, isNever } from '../plan/condition.js'
import { fieldsShape, modelShape, type ReadShape } from '../plan/read-shape.js'
import type { CallerView, ShownConditions } from './caller-view.js'
import { type FirstPage, type PageParents, withFirstPages } from './embedded-pages.js'
import type { HandoffCause } from './keyed-read.js'
import type { ModelReads, TransactionOptions } from './model-reads.js'
import type { ReadRun } from './read-routing.js'
import { byKeys, keyText } from './row-keys.js'
import { type ShownFieldChecks, shownFieldChecks, withShownFields } from './shown-fields.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** How the rows of one request embed: the shape that reads them and the check of their scope. */
export interface Embedding {
  /** What the rows are read with; undefined: the model's whole row (nothing embedded). */
  shape: ReadShape | undefined
  /** Whether `restrict` reads anything (a first page, a scope's check). */
  reads: boolean
  /**
   * Whether `restrict` checks what the page read in the page's snapshot: the caller's scope of
   * embedded rows, the fields embedded rows show on some rows only.
   */
  checks: boolean
  /**
   * Whether `restrict` checks the fields the members show on some rows only: in the page's
   * snapshot, unless the engine marked them as it read them (`marksShown`).
   */
  checksOwn: boolean
  /** The members' own fields shown on some rows only, by field: what the page's read marks. */
  shown: ShownConditions | undefined
  /**
   * The rows with the first pages they embed (embedded-pages.ts), and every embedded row the
   * caller may not see reduced to its key.
   */
  restrict<Row extends object>(rows: Row[], on: ReadRun<ModelReads>): Promise<Row[]>
}

/**
 * The embedding of a selection under the caller's view; undefined when it embeds nothing. `model`
 * is the resource's, whose key ties a member to the first pages it embeds. `handoff` is told when
 * the compiled engine hands the first pages to the `prisma` engine.
 */
export function embeddingOf(
  model: Pick<ModelSource, 'select' | 'key' | 'delegate'>,
  selection: PropertySelection | undefined,
  view: CallerView,
  transaction: TransactionOptions,
  handoff?: ((cause: HandoffCause) => void) | undefined
): Embedding | undefined {
  const shown = shownFieldChecks(model, selection, view)
  if (!selection || selection.embeds.size === 0)
    return (
      shown && {
        shape: undefined,
        reads: true,
        checks: shown.related,
        checksOwn: shown.own !== undefined,
        shown: shown.own,
        restrict: marking(shown),
      }
    )
  const embeds = [...selection.embeds.values()]
  const checks = embeds.flatMap((embed) => {
    const scope = view.scopeOf(embed.property.embed.model)
    return scope === undefined || embed.property.embed.first !== undefined ? [] : [{ embed, scope }]
  })
  // A to-many relation shows the first page of its sub-collection as the caller would get it:
  // one its guards refuse is not read, and its writer keeps the sub-collection's IRI.
  const pages = embeds.flatMap((embed): FirstPage[] => {
    const { first, model } = embed.property.embed
    if (first === undefined) return []
    const scope = view.pageScopeOf(model)
    return isNever(scope) || isNever(view.pageParentScope)
      ? []
      : [{ embed: embed as FirstPage['embed'], scope }]
  })
  const { delegate, key } = model
  const parentScope = view.pageParentScope
  // Members of a page read under another scope than the items' may be outside the latter.
  const check =
    pages.length > 0 &&
    parentScope !== undefined &&
    parentScope !== view.scope &&
    countKey(parentScope) !== countKey(view.scope)
  const parents: PageParents = { delegate, key, scope: parentScope, check }
  return {
    shape: embeddingShape(modelShape(model.select), selection),
    reads: pages.length > 0 || checks.length > 0 || shown !== undefined,
    checks: checks.length > 0 || shown?.related === true,
    checksOwn: shown?.own !== undefined,
    shown: shown?.own,
    async restrict(rows, on) {
      let restricted = await withFirstPages(rows, pages, parents, on, transaction, handoff)
      for (const { embed, scope } of checks)
        restricted = await restrictOne(restricted, { embed, scope, handoff }, on)
      return shown ? withShownFields(restricted, shown, on, handoff) : restricted
    },
  }

  /** The restriction of rows that embed nothing: their fields shown on some rows only. */
  function marking(checks: ShownFieldChecks): Embedding['restrict'] {
    return (rows, on) => withShownFields(rows, checks, on, handoff)
  }
}

/**
 * The rows with the related rows of `embed` outside `scope` reduced to their key; `handoff` told
 * when the compiled engine hands the scope's check to the `prisma` engine.
 */
async function restrictOne<Row extends object>(
  rows: Row[],
  {
    embed,
    scope,
    handoff,
  }: {
    embed: EmbedRequest
    scope: Condition
    handoff?: ((cause: HandoffCause) => void) | undefined
  },
  on: ReadRun<ModelReads>
): Promise<Row[]> {
  const relation = relationOf(embed.property)
  const { key, delegate } = embed.property.embed
  const related = rows.flatMap((row) => {
    const value = (row as Fields)[relation]
    return value && typeof value === 'object' ? [value as Fields] : []
  })
  if (related.length === 0) return rows
  const keyOf = keyText(key)
  const visible = new Set<string>()
  if (!isNever(scope)) {
    const where = allOf([scope, byKeys(key, related)]) as Condition
    const found = await on((reads) => reads.findManyOf(delegate, where, fieldsShape(key), handoff))
    for (const value of found) visible.add(keyOf(value as Fields))
  }
  return rows.map((row) => {
    const value = (row as Fields)[relation] as Fields | null | undefined
    if (!value || visible.has(keyOf(value))) return row
    const kept = Object.fromEntries(key.map((name) => [name, value[name]]))
    return { ...row, [relation]: { ...kept, [OUTSIDE_SCOPE]: true } }
  })
}
