/**
 * @module
 * The tags of the rows an answer's to-one links are written from where the related row holds the
 * foreign key (docs/caching.md#value-tags): an article's `body` link is the key of the body whose
 * `articleId` is the article's, so an insert or a delete of that body changes the article's
 * answers though no row of articles changes. Such an answer carries the related model's tag
 * (`ArticleBody`: any write of its rows by a model-wide purge) and the value tag of the related
 * rows holding the answer's row's key (`ArticleBody:articleId=2`), or `ArticleBody:any` where that
 * value is unknown (a page of several rows) or not tagged (a key of an inexact type, a relation
 * over several columns, a model without a compiled description).
 */
import { anyRowTag, valueTag } from '../contract/cache-tags.js'
import type { CompiledColumn, ModelSource } from '../contract/model-source.js'
import type { LinkSpec } from '../contract/resource.js'
import { exactFields, valueText } from './value-tags.js'

/** The field whose column is `column` among `columns`. */
const fieldOf = (columns: Readonly<Record<string, CompiledColumn>>, column: string) =>
  Object.entries(columns).find(([, [name]]) => name === column)?.[0]

/**
 * The tags of the rows `links` read through a relation whose foreign key the related model holds,
 * for an answer showing `row` (an item), or rows unknown (a page): see the module's comment.
 */
export function heldLinkTags(
  source: Pick<ModelSource, 'provider' | 'compiled'>,
  links: readonly Pick<LinkSpec, 'name' | 'field' | 'kind' | 'from' | 'target'>[] | undefined,
  row?: object | undefined
): string[] {
  const { compiled } = source
  const relations = compiled?.models?.[compiled.name ?? '']?.relations
  const tags: string[] = []
  for (const link of links ?? []) {
    // A link read from the row's own foreign key changes with the row itself.
    if (link.kind !== 'one' || typeof link.from === 'string') continue
    const relation = relations?.[link.field ?? link.name]
    if (relation?.owned) continue
    const target = link.target.name
    tags.push(target)
    const pair = relation?.on.length === 1 ? relation.on[0] : undefined
    const related = relation && compiled?.models?.[relation.model]
    const own = pair && compiled && fieldOf(compiled.columns, pair[0])
    const held = pair && related && fieldOf(related.columns, pair[1])
    const exact = related && exactFields({ provider: source.provider, compiled: related })
    const value = own && row ? (row as Record<string, unknown>)[own] : undefined
    const text = held && exact?.has(held) ? valueText(value) : undefined
    tags.push(held && text !== undefined ? valueTag(target, held, text) : anyRowTag(target))
  }
  return tags
}
