/**
 * @module
 * The change feed of a collection whose model says `@changes` (docs/syncing.md):
 * `GET <collection>/changes`. Without `since`, no member and the token of now; with it, the
 * model's entries of the change log after the token, in commit order, until a page's worth of
 * rows told this caller something: for each key they name, the member as it may read it now, or a
 * tombstone when the row is gone or out of its view and its scope held on the row as logged. Then
 * the token to resume from (the view's `next`), whether the client is up to date, and caching
 * headers that let a shared cache keep the pages of callers told of every row.
 */
import type { Context } from 'hono'
import { type IdKind, keyFields } from '../../contract/keys.js'
import type { PropertySpec } from '../../contract/properties.js'
import type { Resource } from '../../contract/resource.js'
import { CALLER_HEADERS, type CallerView } from '../../data/caller-view.js'
import { type ChangeEntry, ChangeLog, type ChangeLogClient } from '../../data/changes/change-log.js'
import {
  type ChangePosition,
  comparePositions,
  readToken,
  type TokenKey,
  tokenKey,
  writeToken,
} from '../../data/changes/change-token.js'
import {
  refuseUnevaluable,
  type ScopeFields,
  scopeHeldOn,
  UnknownScope,
  UnreadableImage,
} from '../../data/changes/image-scope.js'
import { LogSecret } from '../../data/changes/log-secret.js'
import { textComparison } from '../../data/changes/text-comparison.js'
import type { DataAccess } from '../../data/data-access.js'
import { requestWork } from '../../database/outage.js'
import { budgetLeft } from '../../database/request-deadline.js'
import { budgetOf, type DatabaseTimeouts } from '../../database/timeouts.js'
import { HydraError } from '../../errors.js'
import { declaredFor, declaredModels, declaredPages } from '../../filters/declared-embeds.js'
import { itemShape, type MemberShape } from '../../hydra/member-shape.js'
import { embeddedModels, refuseHiddenKey, refuseShownWhere } from '../access/caller-operation.js'
import { type CallerOptions, isAnonymous, readingCaller } from '../access/request-caller.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { feedPage, type PageCaching } from '../response/changes-page.js'
import { requestQuery } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
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
 * client) and the members through `rows`, telling `perPage` rows a page at most.
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
  const prune = pruning(log, client, resource.name, options.changes)
  // How the scope reads each field of the log's images: its type, and its column's text order.
  const types: ScopeFields = {
    types: new Map(resource.fields.map((field) => [field.name, field.type as string])),
    text: textComparison(client, resource.provider, rows.columns),
  }
  const tokenKeyOf = tokenKeys(new LogSecret(client, resource.provider))
  return async (c) => {
    const base = mountPrefix(c)
    const budget = budgetOf(options.timeouts)
    const work: LogWork = (start) => requestWork(start, c.req.raw, budget.query, rows.outages)
    try {
      refuseUnacceptable(c)
      const view = await readingCaller(c, options, rows, request)
      refuseHiddenKey(view.hidden, resource)
      refuseShownWhere(view.shownWhere, resource)
      const shape = itemShape(resource, requestQuery(c), view, declared, base)
      const since = c.req.query('since')
      // A caller without a scope is told of every entry: its tokens may be the same for all.
      const toldAll = view.scope === undefined
      const caching: PageCaching = {
        toldAll,
        anonymous: isAnonymous(
          c,
          options.authentication?.vary ?? CALLER_HEADERS,
          options.authentication
        ),
      }
      // A scope the log cannot evaluate is refused whatever the page holds, not on its first deletion.
      await refuseUnevaluable(view.scope, types)
      await work(prune)
      const expired = (why: string) =>
        new HydraError(
          410,
          `since: ${why}; read ${base}${resource.collectionPath} again and take a new token.`
        )
      if (since === undefined) {
        const key = await tokenKeyOf(work)
        const now = await work(async () => log.lastOf(resource.name, await log.now()))
        const token = await writeToken(key, resource.name, now, toldAll)
        return feedPage(c, resource, [], token, true, caching)
      }
      const { key, after } = await sinceOf(since, resource, (again) => tokenKeyOf(work, again))
      if (after === undefined)
        throw expired('this token was sealed under a key the change log no longer holds')
      // The end is read once, before any row: every row read is then read after every entry the
      // page reads, and a change after the end is left to the next page, which reads it again.
      const end = await work(() => log.now())
      if (comparePositions(after, end) > 0)
        throw expired('this token is past the end of the change log (was the database restored?)')
      const read: MemberRead = { resource, rows, view, shape, base, types }
      const pruned = () => expired('the change log no longer holds the changes after this token')
      const reading = { log, work, end, pruned, request: c.req.raw, budget: budget.query }
      const found = await callersChanges(read, reading, after, perPage)
      const next = await writeToken(key, resource.name, found.next, toldAll)
      return feedPage(c, resource, found.members, next, found.upToDate, caching)
    } catch (error) {
      const answered = feedError(error, resource, base)
      restyleRouteError(
        answered,
        { base, hydraPrefix: resource.hydraPrefix },
        budget.retryAfter,
        rows.outages
      )
    }
  }
}

/**
 * The log's token key, read once; `again`: read anew (another instance may have made one). A
 * failed read is tried again by the next request.
 */
function tokenKeys(secret: LogSecret): (work: LogWork, again?: boolean) => Promise<TokenKey> {
  let sealing: Promise<TokenKey> | undefined
  return (work, again = false) => {
    if (again) sealing = undefined
    sealing ??= work(() => secret.read()).then(tokenKey)
    sealing.catch(() => {
      sealing = undefined
    })
    return sealing
  }
}

/**
 * The problem of a scope the log cannot evaluate (403) or of an entry it cannot be evaluated on
 * (410); other errors as thrown. Neither names the rule's parts: the collection never tells a
 * caller what its rule reads.
 */
function feedError(error: unknown, resource: Resource<unknown, IdKind>, base: string): unknown {
  const collection = `${base}${resource.collectionPath}`
  if (error instanceof UnknownScope)
    return new HydraError(
      403,
      `The change feed of ${resource.collectionPath} cannot tell this caller's deletions: its access rule reads what the change log cannot evaluate; read ${collection} instead.`
    )
  if (error instanceof UnreadableImage)
    return new HydraError(
      410,
      `since: the change log's entries after this token were written before this caller's rule could be evaluated on them; read ${collection} again and take a new token.`
    )
  return error
}

/**
 * The position `since` names and the key that opened it; no position when it was sealed under a
 * key the log no longer holds (the key is read anew first: another instance may have made one).
 * A `400` when it is no token of this feed.
 */
async function sinceOf(
  since: string,
  resource: Resource<unknown, IdKind>,
  keyOf: (again: boolean) => Promise<TokenKey>
): Promise<{ key: TokenKey; after: ChangePosition | undefined }> {
  let key = await keyOf(false)
  let after = await readToken(key, resource.name, since, resource.provider)
  if (after === 'other key') {
    key = await keyOf(true)
    after = await readToken(key, resource.name, since, resource.provider)
  }
  if (after === undefined)
    throw new HydraError(
      400,
      'since: not a token of this feed; take one from the feed requested without since.'
    )
  return { key, after: after === 'other key' ? undefined : after }
}

/** A read of the log within the request's budget (503 past it), as its database's work. */
type LogWork = <T>(start: () => PromiseLike<T>) => Promise<T>

/** How a page reads the log: up to `end`, within the request's `budget`. */
interface LogReading {
  log: ChangeLog
  work: LogWork
  end: ChangePosition
  /** The `410` of a token whose changes were pruned. */
  pruned: () => Error
  request: Request
  budget: number
}

/** What a page of the feed tells its caller, and where it resumes. */
interface CallersPage {
  members: unknown[]
  next: ChangePosition
  upToDate: boolean
}

/**
 * Up to `perPage` members and tombstones for this caller after `after`: the log is read a batch at
 * a time until that many keys have told the caller something, or up to its readable end. So a page
 * holds what it holds whatever others wrote meanwhile: a page cut at a count of the log's entries
 * would be short, and not up to date, by the writes of rows the caller cannot see. Reading stops
 * early only past half of the request's budget or `SCANNED` entries, which tells the caller what
 * the answer's time does. Each batch is checked against the pruned prefix after it is read (the
 * pruning records its end before it deletes): a token whose changes were pruned meanwhile is a 410.
 */
async function callersChanges(
  read: MemberRead,
  { log, work, end, pruned, request, budget }: LogReading,
  after: ChangePosition,
  perPage: number
): Promise<CallersPage> {
  const batch = Math.max(perPage, BATCH)
  const byKey = new Map<string, KeyChanges>()
  let told = 0
  let scanned = 0
  let cursor = after
  for (;;) {
    const from = cursor
    const entries = await work(() => log.page(read.resource.name, from, batch, end))
    const prefix = await work(() => log.pruned(read.resource.name))
    if (prefix !== undefined && comparePositions(from, prefix) < 0) throw pruned()
    scanned += entries.length
    for (const entry of entries) {
      cursor = entry.position
      const name = JSON.stringify(entry.key)
      const known = byKey.get(name)
      byKey.delete(name)
      const changes: KeyChanges = known ?? { last: entry, images: [], told: undefined }
      changes.last = entry
      changes.images.push(entry.image)
      byKey.set(name, changes)
      // A key's row is read when first met, and again only if a later state of it held the
      // caller's scope: it tells nothing until then (the caller neither sees it nor saw it).
      const silent = changes.told === undefined
      if (known === undefined || (silent && (await heldOn(read, entry.image))))
        changes.told = await memberOf(changes, read)
      if (silent && changes.told !== undefined) told++
      if (told === perPage) return { members: membersOf(byKey), next: cursor, upToDate: false }
    }
    // Up to date: resume after the model's last entry read (or where this page began), which no
    // write of another model moves.
    if (entries.length < batch) return { members: membersOf(byKey), next: cursor, upToDate: true }
    const late = Number.isFinite(budget) && budgetLeft(request, budget) < budget / 2
    if (late || scanned >= SCANNED)
      return { members: membersOf(byKey), next: cursor, upToDate: false }
  }
}

const heldOn = ({ view, types }: MemberRead, image: Record<string, unknown>) =>
  scopeHeldOn(view.scope, image, types)

/** The members and tombstones of keys that told the caller something, in their last entry's order. */
const membersOf = (byKey: ReadonlyMap<string, KeyChanges>): unknown[] =>
  [...byKey.values()].flatMap((changes) => (changes.told === undefined ? [] : [changes.told]))

/** Entries read at a time, at least: fewer reads where the caller's rows are few in the log. */
const BATCH = 100
/** Entries one page reads at most (each new key is a read of its row). */
const SCANNED = 2_000

/** What writing a member of the feed reads with. */
interface MemberRead {
  resource: Resource<unknown, IdKind>
  rows: DataAccess<object>
  view: CallerView
  shape: MemberShape<unknown>
  base: string
  types: ScopeFields
}

/** A key's entries read so far: its last entry, the row's images, and what it tells the caller. */
interface KeyChanges {
  last: ChangeEntry
  images: Record<string, unknown>[]
  told: unknown
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
