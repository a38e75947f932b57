import type { CompiledTableModel } from '../config/schema/model.js'

/** Settings of one generation run that every writer needs. */
export interface EmitContext {
  /**
   * The Prisma line the routes are served on: `prisma7`, typed by its generated client; `prisma8`,
   * a Prisma 8 client read by the runtime's Prisma 8 back end, typed by the routes themselves.
   */
  client: 'prisma7' | 'prisma8'
  /** Import specifier of the Prisma client module, relative to the output folder (`../prisma/client.js`). */
  clientModule: string
  /** Import specifier of the runtime's entry for generated code (`@prisma-hydra/runtime/generated`). */
  runtimeModule: string
  /** Extension written on relative imports between generated files (`.js`, or '' for bundlers). */
  importExtension: string
  /** Extension of the generated files, the client's own (`.ts`, `.mts`, `.cts`). */
  fileExtension: string
  /** The datasource provider (`sqlite`, `postgresql`, `mysql`...): ids and cursor values are checked for it, and SQL is quoted for it. */
  provider: string
  /**
   * Whether the schema has enums whose values the database stores under other names: the
   * compiled-models module then exports `compiledEnums`, which each compiled model names.
   */
  storedEnums?: boolean
  /**
   * Every model of the schema as the `compiled` engine joins its relations, by name: a resource's
   * compiled form joins its to-one links by the columns its relation pairs.
   */
  compiledModels?: Readonly<Record<string, CompiledTableModel>>
}
