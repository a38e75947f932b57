/**
 * What the generator reads of a Prisma 8 schema's text, through Prisma 8's parser: what
 * contract.json leaves out or orders otherwise. Models, enums and fields in the file's order
 * (the contract sorts them by name), their `///` comments with their lines, each field's type as
 * written, and the attributes whose meaning the contract does not keep (`@unique` on a field or
 * `@@unique` on the model, a relation's name, `@default`).
 */
import { type DocLine, docAbove, docAfter } from './doc-comments.js'
import type { AstNode, AttributeAst, FieldDeclarationAst, PslSyntax } from './psl-syntax.js'

/** An attribute's argument, as far as the generator reads it. */
export type ArgValue =
  | { kind: 'string'; value: string }
  /** `[a, b(sort: Desc)]`: the names it lists. */
  | { kind: 'names'; names: string[] }
  | { kind: 'call'; name: string }
  | { kind: 'other'; text: string }

export interface SourceAttribute {
  /** `unique`, `relation`, `default`, or a dotted name (`db.VarChar`). */
  readonly name: string
  readonly args: readonly { readonly name: string | undefined; readonly value: ArgValue }[]
}

/** A `///` line with the line and column (1-based) its text starts at. */
export type LocatedDocLine = DocLine & { readonly line: number; readonly column: number }

export interface SourceField {
  readonly name: string
  readonly line: number
  /** The type as written: `String`, `Author`, `VarChar`, `temporal.updatedAt`. */
  readonly type: string
  /** Whether the type is a constructor call (`VarChar(20)`, `Uuid()`): a native column type. */
  readonly constructed: boolean
  readonly isList: boolean
  readonly isOptional: boolean
  readonly attributes: readonly SourceAttribute[]
  readonly doc: readonly LocatedDocLine[]
}

export interface SourceModel {
  readonly name: string
  readonly line: number
  /** The `namespace` block holding the model, if any. */
  readonly namespace: string | undefined
  readonly doc: readonly LocatedDocLine[]
  readonly fields: readonly SourceField[]
  readonly attributes: readonly SourceAttribute[]
}

export interface SourceEnum {
  readonly name: string
  readonly doc: readonly DocLine[]
  readonly values: readonly { readonly name: string; readonly doc: readonly DocLine[] }[]
}

export interface SourceSchema {
  /** The file as messages name it. */
  readonly file: string
  readonly models: readonly SourceModel[]
  readonly enums: readonly SourceEnum[]
}

/** The 1-based line and column of each offset of `text`. */
function positionFinder(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    starts.push(index + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] ?? 0) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 }
  }
}

/**
 * Reads `text`, the schema file `file`, with `syntax`; throws with the parser's diagnostics, each
 * at its line, when the file does not parse.
 */
export function readSource(syntax: PslSyntax, text: string, file: string): SourceSchema {
  const { document, diagnostics } = syntax.parse(text, file)
  if (diagnostics.length > 0)
    throw new Error(
      `prisma-hydra cannot read ${file}:\n${diagnostics
        .map(
          (d) =>
            `  - ${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`
        )
        .join('\n')}`
    )
  const positionOf = positionFinder(text)
  const lineOf = (offset: number) => positionOf(offset).line
  const located = (lines: readonly DocLine[]) =>
    lines.map((line) => ({ ...line, ...positionOf(line.offset) }))
  const reader = new Reader(syntax, located, lineOf)
  const models: SourceModel[] = []
  const enums: SourceEnum[] = []
  const visit = (declaration: AstNode, namespace: string | undefined) => {
    const model = syntax.ModelDeclarationAst.cast(declaration.syntax)
    if (model) {
      const keyword = model.keyword()
      models.push({
        name: model.name()?.name() ?? '',
        line: lineOf(keyword?.offset ?? model.syntax.offset),
        namespace,
        doc: located(docAbove(syntax, keyword)),
        fields: [...model.fields()].map((field) => reader.field(field)),
        attributes: [...model.attributes()].map((attribute) => reader.attribute(attribute)),
      })
      return
    }
    const block = syntax.GenericBlockDeclarationAst.cast(declaration.syntax)
    if (block?.keyword()?.text === 'enum') {
      enums.push({
        name: block.name()?.name() ?? '',
        doc: docAbove(syntax, block.keyword()),
        values: [...block.entries()].map((entry) => ({
          name: entry.key()?.name() ?? '',
          doc: docAbove(syntax, entry.syntax.firstToken),
        })),
      })
      return
    }
    const inner = syntax.NamespaceDeclarationAst.cast(declaration.syntax)
    if (inner) for (const member of inner.declarations()) visit(member, inner.name()?.name())
  }
  for (const declaration of document.declarations()) visit(declaration, undefined)
  return { file, models, enums }
}

/** Reads fields and attributes. */
class Reader {
  constructor(
    private readonly syntax: PslSyntax,
    private readonly located: (lines: readonly DocLine[]) => LocatedDocLine[],
    private readonly lineOf: (offset: number) => number
  ) {}

  field(field: FieldDeclarationAst): SourceField {
    const type = field.typeAnnotation()
    const { syntax } = field
    return {
      name: field.name()?.name() ?? '',
      line: this.lineOf(syntax.firstToken?.offset ?? syntax.offset),
      type: type?.name()?.path().join('.') ?? '',
      constructed: type?.argList() !== undefined,
      isList: type?.isList() ?? false,
      isOptional: type?.isOptional() ?? false,
      attributes: [...field.attributes()].map((attribute) => this.attribute(attribute)),
      doc: this.located([
        ...docAbove(this.syntax, syntax.firstToken),
        ...docAfter(this.syntax, syntax.lastToken),
      ]),
    }
  }

  attribute(attribute: AttributeAst): SourceAttribute {
    return {
      name: attribute.name()?.path().join('.') ?? '',
      args: [...(attribute.argList()?.args() ?? [])].map((arg) => {
        const value = arg.value()
        return {
          name: arg.name()?.name(),
          value: value ? this.value(value) : { kind: 'other', text: '' },
        }
      }),
    }
  }

  private value(node: AstNode): ArgValue {
    const { syntax } = this
    const text = syntax.StringLiteralExprAst.cast(node.syntax)?.value()
    if (text !== undefined) return { kind: 'string', value: text }
    const array = syntax.ArrayLiteralAst.cast(node.syntax)
    if (array)
      return {
        kind: 'names',
        names: [...array.elements()].map(
          (element) =>
            syntax.IdentifierAst.cast(element.syntax)?.name() ??
            syntax.FunctionCallAst.cast(element.syntax)?.path().join('.') ??
            syntax.printSyntax(element.syntax)
        ),
      }
    const call = syntax.FunctionCallAst.cast(node.syntax)
    if (call) return { kind: 'call', name: call.path().join('.') }
    return { kind: 'other', text: syntax.printSyntax(node.syntax).trim() }
  }
}
