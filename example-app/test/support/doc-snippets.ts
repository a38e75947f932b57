/**
 * The TypeScript blocks of the docs, as modules to compile: each fenced ```ts block is a module of
 * its own, except that a block marked `continues` (```ts continues) is compiled after the block
 * before it on the same page, in one module, as a reader reads it. A block marked `file=<path>`
 * is a file of the project the others live in (getting-started.md's), written at that path.
 */

/** One fenced block: the page, the line of its first line of code (1-based), its code. */
export interface Snippet {
  doc: string
  line: number
  language: string
  /** The words after the language: `continues`, `file=src/prisma.ts`. */
  attributes: string[]
  code: string
}

/** Blocks compiled as one module, and the line each starts at in it (0-based). */
export interface SnippetModule {
  parts: { snippet: Snippet; offset: number }[]
  code: string
}

const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/

/**
 * The fenced code blocks of a Markdown page, as CommonMark reads them: an opening fence indented
 * at most three spaces (a block inside a list item), closed by a fence of the same character at
 * least as long; the opening fence's indentation is taken off the code's lines.
 */
export function fencedBlocks(doc: string, markdown: string): Snippet[] {
  const lines = markdown.split('\n')
  const blocks: Snippet[] = []
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index] ?? '')
    if (!opening) continue
    const [, indent = '', fence = '', info = ''] = opening
    const closing = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t]*$`)
    const end = lines.findIndex((line, at) => at > index && closing.test(line))
    const last = end === -1 ? lines.length : end
    const code = lines
      .slice(index + 1, last)
      .map((line) => line.replace(new RegExp(`^ {0,${indent.length}}`), ''))
    const [language = '', ...attributes] = info.trim().split(/\s+/)
    blocks.push({ doc, line: index + 2, language, attributes, code: `${code.join('\n')}\n` })
    index = last
  }
  return blocks
}

/** The path a block marked `file=<path>` is written at. */
export function fileOf(snippet: Snippet): string | undefined {
  return snippet.attributes.find((word) => word.startsWith('file='))?.slice('file='.length)
}

/**
 * The modules of a page's TypeScript blocks (those not marked `file=`): each block, or a run of
 * blocks each marked `continues`, joined after the one they continue.
 */
export function snippetModules(blocks: readonly Snippet[]): SnippetModule[] {
  const modules: SnippetModule[] = []
  for (const snippet of blocks) {
    if (snippet.language !== 'ts' || fileOf(snippet)) continue
    const previous = modules.at(-1)
    if (snippet.attributes.includes('continues')) {
      if (previous?.parts[0]?.snippet.doc !== snippet.doc)
        throw new Error(`${snippet.doc}:${snippet.line}: no block before it to continue`)
      previous.parts.push({ snippet, offset: previous.code.split('\n').length - 1 })
      previous.code += snippet.code
    } else modules.push({ parts: [{ snippet, offset: 0 }], code: snippet.code })
  }
  return modules
}

/** The page and line (1-based) of a module's line (0-based). */
export function docLine(module: SnippetModule, line: number): string {
  const part = module.parts.findLast(({ offset }) => offset <= line) ?? module.parts[0]
  if (!part) throw new Error('a module without a block')
  return `${part.snippet.doc}:${part.snippet.line + line - part.offset}`
}
