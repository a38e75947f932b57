import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/** The names an entry point exports, values and types, as the compiler resolves them. */
function exportedNames(entry: string): string[] {
  const file = fileURLToPath(new URL(entry, import.meta.url))
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const module = source && checker.getSymbolAtLocation(source)
  if (!module) throw new Error(`${entry} is not a module`)
  return checker.getExportsOfModule(module).map((symbol) => symbol.name)
}

describe('the main entry point', () => {
  // What an application writes by hand: generated code reads `/generated`, the
  // generator's shared types `/defaults`. A name added here past the limit moves one out first.
  it('exports at most 40 names, types included', () => {
    const names = exportedNames('./index.ts')
    expect(names).toContain('hydraCollection')
    expect(names).toContain('DocumentedType')
    expect(names.length, names.sort().join(', ')).toBeLessThanOrEqual(40)
    // A whole program is type-checked: seconds alone, more on a busy machine.
  }, 60_000)
})
