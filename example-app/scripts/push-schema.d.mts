/** Applies a Prisma schema to the database at `url` with Prisma's own (wasm) schema engine. */
export function pushSchema(options: {
  schemaPath: string
  url: string
  /** Accept data-loss warnings (default true); with false, a push that would lose data is refused. */
  force?: boolean
}): Promise<{ executedSteps: number; warnings: string[] }>
