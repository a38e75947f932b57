/** `content` with the datasource provider replaced and the generators' paths made absolute. */
export function rewriteSchema(
  content: string,
  options: {
    provider: string
    baseDir: string
    outputDir?: string
    output?: (absolutePath: string, generator: string) => string
  }
): string
/** Writes a copy of a schema file for `provider` to `<dir>/schema.prisma`; returns its path. */
export function writeSchemaCopy(options: {
  schemaPath: string
  provider: string
  dir: string
  outputDir?: string
  output?: (absolutePath: string, generator: string) => string
}): Promise<string>
