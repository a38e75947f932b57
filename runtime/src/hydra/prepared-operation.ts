/**
 * @module
 * A collection operation prepared once, when an app makes its routes: what every request of it
 * shares (the relations it declares embedded, the models its filters, orders and embeds read) and,
 * for each kind of caller, the operation as that caller may use it with its `hydra:search` block
 * and its page writer. Held by the operation's route; nothing of it is looked up per request.
 */
import type { CollectionOperation } from '../contract/operations.js'
import type { DeclaredEmbed } from '../contract/properties.js'
import { callerSpec, relatedModels } from '../filters/caller-spec.js'
import { declaredFor } from '../filters/declared-embeds.js'
import { relationOf } from '../filters/properties.js'
import { type PageDocument, pageDocument } from './page-document.js'
import { collectionSearch } from './search.js'

/** An operation as one kind of caller may use it, with what writes its pages. */
export interface OperationVariant<M, P extends boolean> {
  /** The operation, its query spec without what the caller may not use. */
  operation: CollectionOperation<M, P>
  /** Its `hydra:search` block at a path (a mount prefix is part of the path). */
  search(path: string): Record<string, unknown> | undefined
  /** Writes its pages. */
  document: PageDocument
}

/** A collection operation as its route holds it. */
export interface PreparedOperation<M, P extends boolean> {
  /** The operation as declared: every caller no rule bears on uses it. */
  declared: OperationVariant<M, P>
  /** The name its declared embeds are chosen by: the operation's, or a sub-collection's. */
  declaredAs: string
  /** The relations it declares embedded. */
  embedded: readonly DeclaredEmbed[] | undefined
  /** By relation path, the model its filters, orders and declared embeds read. */
  relations: ReadonlyMap<string, string>
  /**
   * The operation as a caller may use it who may not filter or order by `hidden` fields nor order
   * through the relations of `partial`, and may select but not filter or order by the fields of
   * `someRows` (shown on some rows only): the same value for the same kind of caller.
   */
  variant(
    hidden: ReadonlySet<string>,
    partial: ReadonlySet<string>,
    someRows?: ReadonlySet<string>
  ): OperationVariant<M, P>
}

const NONE: ReadonlySet<string> = new Set()

/** The operation's variant with its search block and page writer. */
function variantOf<M, P extends boolean>(
  operation: CollectionOperation<M, P>
): OperationVariant<M, P> {
  const { resource, paging, query } = operation
  const prefix = operation.hydraPrefix !== false
  const search = collectionSearch(resource, paging, prefix, query)
  return { operation, search, document: pageDocument(prefix, search) }
}

/**
 * Prepares `operation` as `declaredAs` chooses its declared embeds (its own name, or a
 * sub-collection's: `Book.loans`).
 */
export function prepareOperation<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  declaredAs: string
): PreparedOperation<M, P> {
  const declared = variantOf(operation)
  const embedded = declaredFor(operation.resource.embedded, declaredAs)
  const relations = new Map(relatedModels(operation.query))
  for (const property of embedded ?? []) relations.set(relationOf(property), property.embed.model)
  // One a kind of caller: as many as the app's rules make (few), each made at its first request.
  const variants = new Map<string, OperationVariant<M, P>>()
  return {
    declared,
    declaredAs,
    embedded,
    relations,
    variant(hidden, partial, someRows = NONE) {
      const { query } = operation
      if (!query || (hidden.size === 0 && partial.size === 0 && someRows.size === 0))
        return declared
      const key = [hidden, partial, someRows].map((names) => [...names].sort().join(',')).join('|')
      let variant = variants.get(key)
      if (!variant) {
        const spec = callerSpec(query, hidden, partial, someRows)
        variant = spec === query ? declared : variantOf({ ...operation, query: spec })
        variants.set(key, variant)
      }
      return variant
    },
  }
}
