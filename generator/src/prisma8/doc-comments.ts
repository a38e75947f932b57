/**
 * The `///` comments of a declaration in Prisma 8's syntax tree, joined as Prisma 7 joins them
 * into the DMMF's `documentation`: the run of `///` lines right above the declaration (a blank
 * line ends it; `//` lines between are skipped), then, for a field, the `///` comment ending its
 * own line; each line without `///` and its leading blanks, the lines joined by `\n`.
 * contract.json does not carry comments.
 */
import type { PslSyntax, SyntaxToken } from './psl-syntax.js'

/** One `///` line: its text as the DMMF holds it, and the offset of that text in the file. */
export interface DocLine {
  readonly text: string
  readonly offset: number
}

const isDoc = (token: SyntaxToken) => token.kind === 'Comment' && token.text.startsWith('///')
const docLine = (token: SyntaxToken): DocLine => {
  const text = token.text.slice(3).trimStart()
  return { text, offset: token.offset + token.text.length - text.length }
}

/** Whether `token` is the first thing on its line but blanks. */
function startsLine(token: SyntaxToken): boolean {
  let previous = token.prevToken
  while (previous?.kind === 'Whitespace') previous = previous.prevToken
  return previous === undefined || previous.kind === 'Newline'
}

/** The `///` lines above `first`, a declaration's first token, in the file's order. */
export function docAbove(syntax: PslSyntax, first: SyntaxToken | undefined): DocLine[] {
  const lines: DocLine[] = []
  let newlines = 0
  for (let token = first?.prevToken; token && syntax.isTrivia(token); token = token.prevToken) {
    if (token.kind === 'Newline') {
      newlines += 1
      if (newlines > 1) break
      continue
    }
    if (token.kind !== 'Comment') continue
    // A comment ending the line of the declaration before is that declaration's.
    if (!startsLine(token)) break
    newlines = 0
    if (isDoc(token)) lines.unshift(docLine(token))
  }
  return lines
}

/** The `///` comment after `last`, a field's last token, on the same line. */
export function docAfter(syntax: PslSyntax, last: SyntaxToken | undefined): DocLine[] {
  for (let token = last?.nextToken; token && syntax.isTrivia(token); token = token.nextToken) {
    if (token.kind === 'Newline') break
    if (isDoc(token)) return [docLine(token)]
  }
  return []
}

/** The DMMF's `documentation` of these lines: undefined when there is none. */
export function documentationOf(lines: readonly DocLine[]): string | undefined {
  return lines.length > 0 ? lines.map((line) => line.text).join('\n') : undefined
}
