/**
 * @module
 * What the `compiled` engine runs its statements on: a back end's connection (a Prisma 7
 * client's driver adapter or raw queries, prisma7/shared-adapter.ts).
 */
import type { SqlQuery } from './query.js'

/** Runs the compiled engine's statements. */
export interface SqlRunner {
  /** Whether the rows come typed (the client's raw query) or as the driver gives them. */
  typed: boolean
  rows(query: SqlQuery): Promise<unknown[][]>
  /** Several statements in one transaction at `isolationLevel`: one snapshot. */
  snapshot(queries: readonly SqlQuery[], isolationLevel: string): Promise<unknown[][][]>
}
