/**
 * What one response of each server of bench/peers.ts costs besides time: the statements it sent
 * its database (counted at the driver, bench/peers-statements.ts, over one request after a first
 * one) and, on the pages users build, where each server writes its own body, the body's bytes as
 * sent and gzipped. One line per request and table, under the run's usual connections.
 */
import type { Kind } from './peers-server.js'
import type { Row } from './peers-targets.js'

const n = (value: number) => value.toLocaleString('en')

/** A server's cell: its statements a response, and its body's bytes where bodies differ. */
function cell(row: Row, kind: Kind): string {
  const statements = row.statements.get(kind)
  if (statements === undefined) return '–'
  const body = row.bodies?.get(kind)
  return body
    ? `${statements}; ${n(body.bytes)} B (${n(body.gzipped)} gzipped)`
    : `${statements}; ${n(row.bodyBytes)} B`
}

/** The table of statements and bytes a response, for the rows under `connections`. */
export function responseTable(
  results: readonly Row[],
  kinds: readonly Kind[],
  labels: Record<Kind, string>,
  connections: number
): string {
  return [
    `| database | rows | request | ${kinds.map((kind) => labels[kind]).join(' | ')} |`,
    `|---|---:|---|${kinds.map(() => '---:').join('|')}|`,
    ...results
      .filter((row) => row.connections === connections)
      .map(
        (row) =>
          `| ${row.database} | ${n(row.rows)} | ${row.request.label} | ${kinds.map((kind) => cell(row, kind)).join(' | ')} |`
      ),
  ].join('\n')
}
