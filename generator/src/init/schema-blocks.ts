/**
 * The top-level blocks of a Prisma schema file, as `prisma-hydra init` reads them: each block's
 * kind, name and lines, the string options of generators and datasources, and the `///` comment
 * above it.
 *
 * Read by hand rather than with a schema parser: Prisma's own parser ships inside the CLI's bundle
 * or as a WebAssembly package pinned to one engine build, and `@mrleebo/prisma-ast` needs Node.js
 * 22 while this package supports 20.19. `init` only needs block headers, `key = "value"` lines and
 * doc comments, and it edits the schema by inserting whole lines, so that the user's formatting is
 * left as it is; `prisma generate` validates the result with Prisma's parser.
 */

export type BlockKind = 'datasource' | 'generator' | 'model' | 'view' | 'type' | 'enum'

export interface SchemaBlock {
  kind: BlockKind
  name: string
  /** The line of the block's header (`model Book {`), counted from 0. */
  startLine: number
  /** The line of the block's closing `}`. */
  endLine: number
  /** The options written `key = "value"` (generators and datasources; strings only). */
  options: ReadonlyMap<string, string>
  /** The `///` lines right above the header, trimmed as Prisma trims them, joined by `\n`. */
  documentation: string | undefined
}

const HEADER = /^\s*(datasource|generator|model|view|type|enum)\s+(\w+)\s*\{\s*(\/\/.*)?$/
const CLOSING = /^\s*\}/
/** `key = "value"`: the string is read as JSON reads it (Prisma's escapes are JSON's). */
const STRING_OPTION = /^\s*(\w+)\s*=\s*("(?:[^"\\]|\\.)*")\s*(\/\/.*)?$/
const DOC_COMMENT = /^\s*\/\/\/(.*)$/

/** The blocks of `text`, in order; an unclosed block ends at the last line. */
export function readSchemaBlocks(text: string): SchemaBlock[] {
  const lines = text.split(/\r?\n/)
  const blocks: SchemaBlock[] = []
  let line = 0
  while (line < lines.length) {
    const header = HEADER.exec(lines[line] ?? '')
    if (!header) {
      line++
      continue
    }
    const startLine = line
    let endLine = line + 1
    while (endLine < lines.length && !CLOSING.test(lines[endLine] ?? '')) endLine++
    const body = lines.slice(startLine + 1, endLine)
    blocks.push({
      kind: header[1] as BlockKind,
      name: header[2] as string,
      startLine,
      endLine: Math.min(endLine, lines.length - 1),
      options: stringOptions(body),
      documentation: docCommentAbove(lines, startLine),
    })
    line = endLine + 1
  }
  return blocks
}

function stringOptions(body: string[]): Map<string, string> {
  const options = new Map<string, string>()
  for (const line of body) {
    const match = STRING_OPTION.exec(line)
    if (match) options.set(match[1] as string, JSON.parse(match[2] as string) as string)
  }
  return options
}

function docCommentAbove(lines: string[], header: number): string | undefined {
  const comment: string[] = []
  for (let line = header - 1; line >= 0; line--) {
    const match = DOC_COMMENT.exec(lines[line] ?? '')
    if (!match) break
    comment.unshift((match[1] as string).trim())
  }
  return comment.length > 0 ? comment.join('\n') : undefined
}
