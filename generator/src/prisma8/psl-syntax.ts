/**
 * Prisma 8's lossless PSL parser (`parse` of `@prisma/orm-framework/psl-parser/syntax`), loaded at
 * run time from the user's project: the generator does not depend on Prisma 8 (nor declares it a
 * peer: the registry's `latest` of that package is another line, which a range would refuse), and
 * the parser must be the project's own, of its `@prisma/orm-postgres` version (docs/prisma-8.md).
 * The types below are the part of its syntax tree the generator walks.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** The package holding the parser, and the version the generator is tested with. */
const PSL_PARSER_PACKAGE = '@prisma/orm-framework'
const PSL_PARSER_VERSION = '8.0.0-rc.13'
const ENTRY = `${PSL_PARSER_PACKAGE}/psl-parser/syntax`

export interface SyntaxToken {
  readonly kind: string
  readonly text: string
  readonly offset: number
  readonly prevToken: SyntaxToken | undefined
  readonly nextToken: SyntaxToken | undefined
}

export interface SyntaxNode {
  readonly kind: string
  readonly offset: number
  readonly firstToken: SyntaxToken | undefined
  readonly lastToken: SyntaxToken | undefined
}

export interface AstNode {
  readonly syntax: SyntaxNode
}

export interface IdentifierAst extends AstNode {
  name(): string | undefined
}

export interface QualifiedNameAst extends AstNode {
  path(): readonly string[]
}

export interface AttributeArgAst extends AstNode {
  name(): IdentifierAst | undefined
  value(): AstNode | undefined
}

interface ArgList {
  args(): Iterable<AttributeArgAst>
}

export interface AttributeAst extends AstNode {
  name(): QualifiedNameAst | undefined
  argList(): ArgList | undefined
}

export interface TypeAnnotationAst extends AstNode {
  name(): QualifiedNameAst | undefined
  argList(): ArgList | undefined
  isList(): boolean
  isOptional(): boolean
}

export interface FieldDeclarationAst extends AstNode {
  name(): IdentifierAst | undefined
  typeAnnotation(): TypeAnnotationAst | undefined
  attributes(): Iterable<AttributeAst>
}

interface BlockAst extends AstNode {
  keyword(): SyntaxToken | undefined
  name(): IdentifierAst | undefined
}

export interface ModelDeclarationAst extends BlockAst {
  fields(): Iterable<FieldDeclarationAst>
  attributes(): Iterable<AttributeAst>
}

export interface KeyValuePairAst extends AstNode {
  key(): IdentifierAst | undefined
}

export interface GenericBlockDeclarationAst extends BlockAst {
  entries(): Iterable<KeyValuePairAst>
}

export interface NamespaceDeclarationAst extends BlockAst {
  declarations(): Iterable<AstNode>
}

export interface ParseDiagnostic {
  readonly code: string
  readonly message: string
  readonly range: { readonly start: { readonly line: number; readonly character: number } }
}

interface Caster<T> {
  cast(node: SyntaxNode): T | undefined
}

/** What the generator uses of the parser's module. */
export interface PslSyntax {
  parse(
    source: string,
    filename: string
  ): {
    readonly document: { declarations(): Iterable<AstNode> }
    readonly diagnostics: readonly ParseDiagnostic[]
  }
  isTrivia(token: SyntaxToken): boolean
  printSyntax(node: SyntaxNode): string
  ModelDeclarationAst: Caster<ModelDeclarationAst>
  GenericBlockDeclarationAst: Caster<GenericBlockDeclarationAst>
  NamespaceDeclarationAst: Caster<NamespaceDeclarationAst>
  StringLiteralExprAst: Caster<AstNode & { value(): string | undefined }>
  ArrayLiteralAst: Caster<AstNode & { elements(): Iterable<AstNode> }>
  IdentifierAst: Caster<IdentifierAst>
  FunctionCallAst: Caster<
    AstNode & { path(): readonly string[]; args(): Iterable<AttributeArgAst> }
  >
}

const MEMBERS = [
  'parse',
  'isTrivia',
  'printSyntax',
  'ModelDeclarationAst',
  'GenericBlockDeclarationAst',
  'NamespaceDeclarationAst',
  'StringLiteralExprAst',
  'ArrayLiteralAst',
  'IdentifierAst',
  'FunctionCallAst',
] as const

const install = `npm install --save-exact ${PSL_PARSER_PACKAGE}@<the version of your @prisma/orm-postgres> (tested with ${PSL_PARSER_VERSION})`

/**
 * The parser as the project in `folders` (tried in order: the contract's folder, the working
 * folder) resolves it; throws naming the package and its version when none does.
 */
export async function loadPslSyntax(folders: readonly string[]): Promise<PslSyntax> {
  let resolved: string | undefined
  for (const folder of folders) {
    try {
      resolved = createRequire(path.join(folder, 'package.json')).resolve(ENTRY)
      break
    } catch {
      // Not installed where this folder resolves packages: try the next one.
    }
  }
  if (!resolved)
    throw new Error(
      `prisma-hydra reads a Prisma 8 schema with Prisma 8's parser, ${ENTRY}, which is not installed (looked from ${folders.join(', ')}): ${install}`
    )
  const loaded = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>
  const missing = MEMBERS.filter((name) => loaded[name] === undefined)
  if (missing.length > 0)
    throw new Error(
      `prisma-hydra cannot use ${ENTRY} (${resolved}): it has no ${missing.join(', ')}; install the version the generator reads: ${install}`
    )
  return loaded as unknown as PslSyntax
}
