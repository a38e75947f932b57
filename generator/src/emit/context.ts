/** Settings of one generation run that every writer needs. */
export interface EmitContext {
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
}
