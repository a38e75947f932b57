/**
 * @module
 * The models a read reads, walked one way for the shared totals and for the cache tags: a count
 * (docs/deployment.md#shared-totals) reads the model counted, and every model a relation test of
 * its condition goes through, at any depth and inside `and`, `or` and `not`. A count's condition
 * is the request's filters, a sub-collection's parent condition and the caller's scope
 * (data/page-source.ts): loans filtered by their book's title read `Loan` and `Book`, a
 * scope `{ book: { is: { ownerId } } }` reads `Book`, the books of an author through a
 * many-to-many relation read `Author`. A count shared between instances is dropped when any of
 * them is written (data/prisma7/purge-extension.ts). A request (docs/caching.md#cache-tags) reads its own
 * model, the models it names (its filters' and orders' targets, the first pages it embeds, its
 * parent) and every model the caller's scopes of those reach: Article's scope
 * `{ tenant: { public: true } }` reads Tenant wherever articles are read, embedded pages included,
 * and so do the conditions of fields shown on some rows (`shownWhere`). The names are Prisma's
 * model names, as the written models' are (data/written-models.ts).
 */
import { anyFieldTag, fieldTag } from '../contract/cache-tags.js'
import { type Condition, walkConditions } from '../plan/condition.js'
import { type CallerRequest, type CallerView, relatedOf } from './caller-view.js'
import type { RelationTargets } from './written-models.js'

/** The model a relation with no known target leads to: no model is named so. */
const UNKNOWN = ''

/**
 * Adds the models a condition on `model` reads through its relations, and to `fields`, when given,
 * the tag of each field it tests on each model (`Book.genre`: hono/response/cache-tags.ts).
 */
function walk(
  targets: RelationTargets,
  model: string,
  condition: Condition | undefined,
  into: Set<string>,
  fields?: Set<string>
): void {
  const targetOf = (on: string, relation: string) => targets.get(on)?.get(relation)
  // A relation whose target is unknown (a client holding no data model) leads the walk to
  // UNKNOWN, whose tests name no field of a known model: the relation reads any field of its own.
  const walkTo = (on: string, relation: string) =>
    on === UNKNOWN ? UNKNOWN : (targetOf(on, relation) ?? UNKNOWN)
  // A relation test reads the target's rows, and so does a to-one relation compared with null
  // (`{ author: null }`, read as a field's test); `and`, `or`, `not` stay on a model.
  for (const { condition: part, model: on } of walkConditions(condition, model, walkTo)) {
    const name =
      part.kind === 'relation' ? part.relation : part.kind === 'field' ? part.field : undefined
    if (name === undefined || on === UNKNOWN) continue
    fields?.add(fieldTag(on, name))
    const target = targetOf(on, name)
    if (target !== undefined) into.add(target)
    else if (part.kind === 'relation') fields?.add(anyFieldTag(on))
  }
}

/**
 * Adds to `fields` the tag of each field a page of `model` is ordered by, through its relations
 * (`author.name` reads `Book.author` and `Author.name`).
 */
export function orderFields(
  targets: RelationTargets,
  model: string,
  order: readonly { field: string }[],
  fields: Set<string>
): void {
  for (const { field } of order) {
    let on: string | undefined = model
    for (const name of field.split('.')) {
      if (on === undefined) break
      fields.add(fieldTag(on, name))
      on = targets.get(on)?.get(name)
    }
  }
}

/** Adds to `fields` the tag of each field `condition` tests on `model` and the models it reaches. */
export function conditionFields(
  targets: RelationTargets,
  model: string,
  condition: Condition | undefined,
  fields: Set<string>
): void {
  walk(targets, model, condition, new Set(), fields)
}

/** The models a condition on `model` reads: `model` first, then each model its relations reach. */
export function conditionModels(
  targets: RelationTargets,
  model: string,
  condition: Condition | undefined
): string[] {
  const models = new Set([model])
  walk(targets, model, condition, models)
  return [...models]
}

/**
 * The models a request's scopes read under the caller's `view`: every model reached through a
 * relation by the scope it reads each model it names with (its own, the item scope of its own
 * model where it embeds first pages, its relations' targets, its parent, the first pages' own
 * scopes), walked as a count's `where` is; and each related model a scope restricts, whose rows
 * then decide which related rows the answer shows or only links (an item embeds a book only when
 * the caller's scope of books admits it). The request's own model is not in it unless reached.
 */
export function scopeReads(
  targets: RelationTargets,
  request: CallerRequest,
  view: CallerView,
  fields?: Set<string>
): string[] {
  const reached = new Set<string>()
  walk(targets, request.model, view.scope, reached, fields)
  walk(targets, request.model, view.pageParentScope, reached, fields)
  // A view no rule bears on reads every row of every model: no scope reaches further.
  if (!view.personal) return [...reached]
  const restricted = (model: string, scope: Condition | undefined) => {
    if (scope !== undefined) reached.add(model)
    walk(targets, model, scope, reached, fields)
  }
  for (const model of new Set(relatedOf(request))) restricted(model, view.scopeOf(model))
  for (const model of new Set(request.pages ?? [])) restricted(model, view.pageScopeOf(model))
  // A field shown on some rows only shows by what its condition reads: a write there changes it.
  for (const condition of view.shownWhere.values())
    walk(targets, request.model, condition, reached, fields)
  for (const model of new Set(relatedOf(request)))
    for (const condition of view.shownWhereOf(model).values())
      walk(targets, model, condition, reached, fields)
  return [...reached]
}

/** A model's client property: its name with its first letter in lower case (`bookReview`). */
const delegateOf = (model: string) => model.charAt(0).toLowerCase() + model.slice(1)

/**
 * The models each count of the model whose client property is `delegate` reads, from the data
 * model `client` holds (as written models are: `relationTargets`). A client holding none gives
 * the counted model alone, named from its delegate.
 */
export function countReads(
  targets: RelationTargets,
  delegate: string
): (condition: Condition | undefined) => string[] {
  const model =
    [...targets.keys()].find((name) => delegateOf(name) === delegate) ??
    delegate.charAt(0).toUpperCase() + delegate.slice(1)
  return (condition) => conditionModels(targets, model, condition)
}
