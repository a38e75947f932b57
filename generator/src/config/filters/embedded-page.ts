/**
 * The page of its sub-collection a capped to-many embed shows (docs/member-shape.md): the
 * sub-collection is the target's collection operation over one parent's rows, so the page is
 * written in that operation's parameters and sized by its paging. Where clients choose the page
 * size there (up to its maximum), the page is asked with `first` as its size and holds exactly the
 * items embedded; otherwise it is the sub-collection's own first page.
 */
import type { EmbeddedPage } from '@prisma-hydra/runtime/defaults'
import type { ServedModel } from '../models/served-model.js'
import type { GlobalConfig } from '../paging/global.js'
import { resolvePaging } from '../paging/paging-precedence.js'

/** The first page of `target`'s collection that `first` embedded items are. */
export function embeddedPage(
  target: Pick<ServedModel, 'options'>,
  first: number,
  global: Pick<GlobalConfig, 'defaults' | 'parameters'>
): EmbeddedPage {
  // The target's own problems are reported as its collection is resolved: none again here.
  const paging = resolvePaging(global.defaults, target.options, {}, '@pagination', () => {})
  const { parameters } = global
  const partial = paging.partial ? { partial: true } : {}
  if (!paging.enabled) return { page: parameters.page }
  const maximum = paging.maximumItemsPerPage
  const sized =
    paging.clientItemsPerPage && first !== paging.itemsPerPage && (maximum ?? first) >= first
  if (!sized) return { page: parameters.page, size: paging.itemsPerPage, ...partial }
  return { page: parameters.page, itemsPerPage: parameters.itemsPerPage, size: first, ...partial }
}
