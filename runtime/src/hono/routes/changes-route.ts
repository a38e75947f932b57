/**
 * @module
 * The change feed of a collection whose model says `@changes` (docs/syncing.md):
 * `GET <collection>/changes`. Without `since`, no member and the token of now; with it, the
 * model's entries of the change log after the token, in commit order, a page of them at most, and
 * for each key they name, the member as this caller may read it now, or a tombstone when the row
 * is gone or out of its view and its scope held on the row as logged. Then the token to resume
 * from (the view's `next`) and whether the client is up to date.
 */
import type { Context } from 'hono'
import { type IdKind, keyFields } from '../../contract/keys.js'
import type { PropertySpec } from '../../contract/properties.js'
import type { Resource } from '../../contract/resource.js'
import type { CallerView } from '../../data/caller-view.js'
import { type ChangeEntry, ChangeLog, type ChangeLogClient } from '../../data/changes/change-log.js'
import { comparePositions, readToken, writeToken } from '../../data/changes/change-token.js'
import {
  refuseUnevaluable,
  type ScopeFields,
  scopeHeldOn,
  UnknownScope,
} from '../../data/changes/image-scope.js'
import { textComparison } from '../../data/changes/text-comparison.js'
import type { DataAccess } from '../../data/data-access.js'
import { budgetOf, type DatabaseTimeouts } from '../../database/timeouts.js'
import { HydraError } from '../../errors.js'
import { declaredFor, declaredModels, declaredPages } from '../../filters/declared-embeds.js'
import { itemShape, type MemberShape } from '../../hydra/member-shape.js'
import { hydraTerm } from '../../terms.js'
import { embeddedModels, refuseHiddenKey, refuseShownWhere } from '../access/caller-operation.js'
import { type CallerOptions, readingCaller } from '../access/request-caller.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { requestQuery } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import { jsonLd } from '../response/json-ld.js'
import { type ChangeFeedSettings, pruning } from './change-retention.js'

/** The `@type` of a tombstone: a member that left the caller's view. */
const TOMBSTONE_TYPE = 'Deleted'

/** Options of a feed: the app's access rules, time budgets and the log's retention. */
export interface ChangesOptions extends CallerOptions {
  /** Time budgets of the feed's database work (docs/deployment.md#timeouts). */
  timeouts?: DatabaseTimeouts | undefined
  /** The log's retention (`createHydraApp({ changes })`). */
  changes?: ChangeFeedSettings | undefined
}

/**
 * The feed route of `resource`'s collection, reading the log through `client` (the app's Prisma
 * client) and the members through `rows`, `perPage` entries a page at most.
 */
export function changesRoute<M, K extends IdKind, P = undefined>(
  resource: Resource<M, K> & { properties?: P },
  rows: DataAccess<object>,
  client: ChangeLogClient,
  perPage: number,
  options: ChangesOptions = {}
): (c: Context) => Promise<Response> {
  const declared = declaredFor(resource.embedded, 'collection')
  const related = [
    ...new Set([
      ...embeddedModels(resource.properties as PropertySpec | undefined),
      ...declaredModels(declared),
    ]),
  ]
  const request = {
    model: resource.name,
    operation: 'collection',
    related,
    pages: declaredPages(declared),
  }
  const log = new ChangeLog(client, resource.provider)
  const prune = pruning(log, options.changes)
  // How the scope reads each field of the log's images: its type, and its column's text order.
  const types: ScopeFields = {
    types: new Map(resource.fields.map((field) => [field.name, field.type as string])),
    text: textComparison(client, resource.provider, rows.columns),
  }
  return async (c) => {
    const base = mountPrefix(c)
    const budget = budgetOf(options.timeouts)
    try {
      refuseUnacceptable(c)
      const view = await readingCaller(c, options, rows, request)
      refuseHiddenKey(view.hidden, resource)
      refuseShownWhere(view.shownWhere, resource)
      const shape = itemShape(resource, requestQuery(c), view, declared, base)
      const since = c.req.query('since')
      // A scope the log cannot evaluate is refused whatever the page holds, not on its first deletion.
      await refuseUnevaluable(view.scope, types)
      await prune()
      if (since === undefined) return feedPage(c, resource, [], writeToken(await log.now()), true)
      const after = readToken(since, resource.provider)
      if (after === undefined)
        throw new HydraError(
          400,
          'since: not a token of this feed; take one from the feed requested without since.'
        )
      const page = await log.page(resource.name, after, perPage)
      const pruned = await log.pruned()
      if (pruned !== undefined && comparePositions(after, pruned) < 0)
        throw new HydraError(
          410,
          `since: the change log no longer holds the changes after this token; read ${base}${resource.collectionPath} again and take a new token.`
        )
      const members: unknown[] = []
      const read: MemberRead = { resource, rows, view, shape, base, types }
      for (const changes of changesByKey(page.entries)) {
        const member = await memberOf(changes, read)
        if (member !== undefined) members.push(member)
      }
      const full = page.entries.length === perPage
      const last = page.entries.at(-1)
      const next = full && last ? last.position : page.end
      return feedPage(c, resource, members, writeToken(next), !full)
    } catch (error) {
      const answered =
        error instanceof UnknownScope
          ? new HydraError(
              403,
              `The change feed of ${resource.collectionPath} cannot tell this caller's deletions: ${error.message}.`
            )
          : error
      restyleRouteError(
        answered,
        { base, hydraPrefix: resource.hydraPrefix },
        budget.retryAfter,
        rows.outages
      )
    }
  }
}

/** What writing a member of the feed reads with. */
interface MemberRead {
  resource: Resource<unknown, IdKind>
  rows: DataAccess<object>
  view: CallerView
  shape: MemberShape<unknown>
  base: string
  types: ScopeFields
}

/** A key of a page: its last entry, and the row's images of all its entries in the page. */
interface KeyChanges {
  last: ChangeEntry
  images: Record<string, unknown>[]
}

/**
 * Each key the entries name, in the order of its last entry, with every image of the row they
 * logged: the row's states since the token, any of which the caller's copy may hold.
 */
function changesByKey(entries: readonly ChangeEntry[]): KeyChanges[] {
  const byKey = new Map<string, KeyChanges>()
  for (const entry of entries) {
    const key = JSON.stringify(entry.key)
    const images = byKey.get(key)?.images ?? []
    images.push(entry.image)
    byKey.delete(key)
    byKey.set(key, { last: entry, images })
  }
  return [...byKey.values()]
}

/**
 * The member of a key's row as the caller reads it now, or its tombstone when the caller may not
 * read it and its scope held on one of the row's logged states (the copy may hold that one), or
 * undefined when it held on none (the caller never saw the row since the token). The row is read
 * by the logged key itself and its `@id` written as the collection writes it, whether or not the
 * item route could read that IRI back (a `String` key holding a NUL character); a key no value of
 * its field can be (a `Float` key not finite, which no query finds) names no member: undefined.
 */
async function memberOf({ last, images }: KeyChanges, read: MemberRead): Promise<unknown> {
  const { resource, rows, view, shape, base, types } = read
  const keyRow: Record<string, unknown> = {}
  for (const field of keyFields(resource.id)) {
    const value = keyValue(last.key[field.name], field.kind)
    if (value === undefined) return undefined
    keyRow[field.name] = value
  }
  const id = resource.id.kind === 'Composite' ? keyRow : keyRow[resource.id.name]
  const row = await rows.item(id, view, shape.selection)
  if (row) return shape.write(row)
  for (const image of images)
    if (await scopeHeldOn(view.scope, image, types))
      return { '@id': resource.iriOf(keyRow, base), '@type': TOMBSTONE_TYPE }
  return undefined
}

/**
 * A key field's value as the log's JSON holds it, typed as Prisma takes it in a `where`; undefined
 * for a number that is not finite (JSON holds none: PostgreSQL writes `NaN` as text).
 */
function keyValue(value: unknown, kind: string): unknown {
  if (kind === 'Int' || kind === 'Float') {
    const number = Number(value)
    return Number.isFinite(number) ? number : undefined
  }
  if (kind === 'BigInt') return BigInt(String(value))
  return value
}

/** The feed's document: its members, the link to resume from and whether the client is up to date. */
function feedPage(
  c: Context,
  resource: Resource<unknown, IdKind>,
  members: unknown[],
  token: string,
  upToDate: boolean
): Response {
  const term = (name: string) => hydraTerm(name, resource.hydraPrefix !== false)
  const url = new URL(c.req.url)
  const self = `${url.pathname}${url.search}`
  url.searchParams.set('since', token)
  const document = {
    '@context': `${mountPrefix(c)}/contexts/${resource.name}`,
    '@id': self,
    '@type': term('Collection'),
    [term('member')]: members,
    [term('view')]: {
      '@id': self,
      '@type': term('PartialCollectionView'),
      [term('next')]: `${url.pathname}${url.search}`,
    },
    upToDate,
  }
  return jsonLd(c, document, undefined, 'private, no-store')
}
