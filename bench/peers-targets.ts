/**
 * The targets bench/peers.ts checks, as docs/performance.md states them ("Targets"): each a ratio
 * of request rates taken within each run, met when every run reaches it.
 *
 * - The `prisma` engine (`generated`): where its statements are cheaper than the peers' (the plain
 *   count of full paging, the keyset of cursor paging), at least 1.0x every peer serving the mode;
 *   where both send the same statement (partial pages; MariaDB's full and cursor pages, whose
 *   optimizer reads the keyset as Prisma's `cursor`), at least 0.9x the hand-written route.
 * - Cheap totals: `estimated` and `cached` at least 0.9x the partial page of the same table.
 * - The `compiled` engine: at least 0.8x the Hono floor (0.7x on MariaDB, whose driver keeps its
 *   prepared statements where `@prisma/adapter-mariadb` turns that cache off) and at least 1.3x the
 *   hand-written route, in every mode.
 * - The pages users build (the shaped page, the scoped page, the scoped sub-collection, the
 *   listing): `generated` at least 0.9x the hand-written route returning the same data and 0.9x
 *   that route at its best (bench/peers-best.ts), `compiled` at least 1.3x the hand-written route;
 *   the shaped page's body at most 1.5x the hand-written route's JSON.
 * - No failed response under 100 connections on PostgreSQL.
 */
import type { Measure, Spread } from './load.js'
import { shownSpread, spread } from './load.js'
import type { Kind } from './peers-server.js'
import type { BodySize } from './peers-shaped.js'

/** A request bench/peers.ts measures. */
export interface PeerRequest {
  id: string
  label: string
  path: (rows: number) => string
  by: readonly Kind[]
  /** Only on these databases (default: all). */
  on?: readonly string[]
  /**
   * A page users build, whose answers are compared as data, not bytes (bench/peers-shaped.ts,
   * bench/peers-scoped.ts): each kind's body is its own. Throws unless every server answers with
   * the same data; returns each server's body size.
   */
  data?: (
    servers: ReadonlyMap<string, { origin: string }>,
    path: string,
    rows: number
  ) => Promise<Map<string, BodySize>>
  /** The generated route's body at most this many times the hand-written route's. */
  bodyAtMost?: number
}

/** One line of results: a request on one table under one number of connections. */
export interface Row {
  database: string
  rows: number
  request: PeerRequest
  connections: number
  /** Per server, one measure per run. */
  measures: Map<Kind, Measure[]>
  /** Per server, its CPU time (user + system, µs) per response, one value per run. */
  cpu: Map<Kind, number[]>
  bodyBytes: number
  /** Per server, its body's bytes, where the servers answer with bodies of their own. */
  bodies?: Map<string, BodySize>
  /** Per server, the statements it sends its database for one response (peers-statements.ts). */
  statements: Map<Kind, number>
}

export const TARGETS = {
  cheaper: 1.0,
  same: 0.9,
  cheap: 0.9,
  compiledFloor: 0.8,
  compiledFloorMariadb: 0.7,
  compiledHandwritten: 1.3,
  shapedBody: 1.5,
}

/** `kind`'s rate over `over`'s within each run, where both served the row. */
export function runRatios(row: Row, kind: Kind, over: Kind): number[] | undefined {
  const of = row.measures.get(kind)
  const base = row.measures.get(over)
  if (!of || !base) return undefined
  return of.map((m, run) => m.perSecond / (base[run] as Measure).perSecond)
}
/** Within each run: `kind`'s rate over `over`'s; their median and range. */
export function ratio(row: Row, kind: Kind, over: Kind): Spread | undefined {
  const values = runRatios(row, kind, over)
  return values && spread(values)
}

/**
 * A ratio target's verdict from each run's ratio: a median on one side of the target says little
 * when the runs fall on both sides of it (the machine's speed moves between turns by more than
 * the distance to the target), so such a target is said to be met in so many of the runs.
 */
function ratioVerdict(values: readonly number[], target: number): string {
  const met = values.filter((value) => value >= target).length
  if (met === values.length) return 'met'
  if (met === 0) return 'NOT MET'
  return `met in ${met} of ${values.length} runs: not established`
}

const LABEL: Partial<Record<Kind, string>> = {
  generated: 'generated',
  generatedJoins: 'generated on a relationJoins client',
  compiled: 'compiled',
  compiledNode22: 'compiled on Node 22',
  prisma8: 'Prisma 8',
  handwritten: 'hand-written',
  handwrittenBest: 'best hand-written',
  pagination: 'prisma-extension-pagination',
  relay: 'devoxa relay',
  honoFloor: 'Hono floor',
  floor: 'node:http floor',
}
const n = (value: number) => value.toLocaleString('en')

/** The target lines of a run's rows. */
export function targetLines(results: readonly Row[], poolConnections: readonly number[]): string[] {
  const lines: string[] = []
  const line = (row: Row, kind: Kind, over: Kind, target: number) => {
    const values = runRatios(row, kind, over)
    if (values)
      lines.push(
        `- ${row.database}, ${row.request.id} at ${n(row.rows)} rows: ${LABEL[kind]} / ${LABEL[over]} ${shownSpread(spread(values))} ≥ ${target}: ${ratioVerdict(values, target)}`
      )
  }
  const plain = results.filter((row) => ['full', 'partial', 'cursor'].includes(row.request.id))
  for (const row of plain.filter(
    (row) => row.connections === Math.min(...connectionsOf(results))
  )) {
    const cheaper = row.request.id !== 'partial' && row.database !== 'MariaDB'
    if (cheaper) {
      for (const peer of ['handwritten', 'pagination', 'relay'] as const)
        line(row, 'generated', peer, TARGETS.cheaper)
    } else line(row, 'generated', 'handwritten', TARGETS.same)
    const floor = row.database === 'MariaDB' ? TARGETS.compiledFloorMariadb : TARGETS.compiledFloor
    line(row, 'compiled', 'honoFloor', floor)
    line(row, 'compiled', 'handwritten', TARGETS.compiledHandwritten)
  }
  for (const cheap of results.filter((row) => ['cached', 'estimated'].includes(row.request.id))) {
    const partial = results.find(
      (row) =>
        row.request.id === 'partial' &&
        row.database === cheap.database &&
        row.rows === cheap.rows &&
        row.connections === cheap.connections
    )
    const ofCheap = cheap.measures.get('generated')
    const ofPartial = partial?.measures.get('generated')
    if (!ofCheap || !ofPartial) continue
    const values = ofCheap.map((m, run) => m.perSecond / (ofPartial[run] as Measure).perSecond)
    lines.push(
      `- ${cheap.database}, totals: ${cheap.request.id} at ${n(cheap.rows)} rows: generated / generated partial page ${shownSpread(spread(values))} ≥ ${TARGETS.cheap}: ${ratioVerdict(values, TARGETS.cheap)}`
    )
  }
  for (const row of results.filter((row) => row.request.data)) {
    line(row, 'generated', 'handwritten', TARGETS.same)
    line(row, 'generated', 'handwrittenBest', TARGETS.same)
    line(row, 'generatedJoins', 'handwrittenBest', TARGETS.same)
    line(row, 'compiled', 'handwritten', TARGETS.compiledHandwritten)
    const ours = row.bodies?.get('generated')
    const theirs = row.bodies?.get('handwritten')
    const most = row.request.bodyAtMost
    if (ours && theirs && most !== undefined) {
      const times = ours.bytes / theirs.bytes
      lines.push(
        `- ${row.database}, ${row.request.id} at ${n(row.rows)} rows: body ${n(ours.bytes)} bytes / hand-written JSON ${n(theirs.bytes)} bytes = ${times.toFixed(2)} ≤ ${most}: ${times <= most ? 'met' : 'NOT MET'} (gzipped: ${n(ours.gzipped)} / ${n(theirs.gzipped)} = ${(ours.gzipped / theirs.gzipped).toFixed(2)})`
      )
    }
  }
  for (const connections of poolConnections) {
    for (const row of results.filter(
      (row) => row.request.id === 'full' && row.connections === connections
    )) {
      const failed = (kind: Kind) =>
        (row.measures.get(kind) ?? []).reduce((sum, m) => sum + m.failures, 0)
      const others = [...row.measures.keys()]
        .filter((kind) => kind !== 'generated')
        .map((kind) => `${LABEL[kind] ?? kind} ${failed(kind)}`)
        .join(', ')
      lines.push(
        `- ${row.database}, full paging at ${n(row.rows)} rows under ${connections} connections: ${failed('generated')} failed responses from the generated route${connections === 100 ? ` (target 0: ${failed('generated') === 0 ? 'met' : 'NOT MET'})` : ''}; ${others}`
      )
    }
  }
  return lines
}

const connectionsOf = (results: readonly Row[]) => results.map((row) => row.connections)
