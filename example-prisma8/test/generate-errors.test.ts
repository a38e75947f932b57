/**
 * `prisma-hydra generate` refuses what it cannot generate from, saying where: an annotation error
 * at its line of the .prisma file, a contract emitted before the schema last changed, a contract
 * of another database, a project without Prisma 8's parser. It writes nothing then.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runContractCommand } from '../../generator/src/contract-command.js'
import { loadPslSyntax } from '../../generator/src/prisma8/psl-syntax.js'
import { contractFile, contractJson } from './prisma8-emit.js'

let folder: string

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'hydra-prisma8-errors-'))
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** Runs the command in `folder` on `schema` (written there) and `contract`; its exit and lines. */
async function generate(schema: string, contract = contractJson) {
  await writeFile(path.join(folder, 'contract.prisma'), schema)
  const err: string[] = []
  const code = await runContractCommand(
    ['--contract', contract, '--schema', 'contract.prisma', '--output', 'out'],
    folder,
    { out: () => {}, err: (line) => err.push(line) }
  )
  return { code, err: err.join('\n') }
}

/** The 1-based line of `text` holding `needle`. */
const lineOf = (text: string, needle: string) =>
  text.split('\n').findIndex((line) => line.includes(needle)) + 1

describe('prisma-hydra generate', () => {
  it('names the .prisma file and the line (and column) of an annotation error', async () => {
    const schema = (await readFile(contractFile, 'utf8'))
      .replace('maximumItemsPerPage: 50)', 'maximumItemsPerPage: "fifty")')
      .replace('  /// @hidden\n', '  /// Hidden twice.\n  /// @hidden(now)\n')
    const { code, err } = await generate(schema)
    expect(code).toBe(1)
    const pagination = lineOf(schema, 'maximumItemsPerPage: "fifty"')
    const hidden = lineOf(schema, '@hidden(now)')
    expect(pagination).toBeGreaterThan(0)
    expect(err).toContain(
      `error: contract.prisma:${pagination}: Model "Book", @pagination, option "maximumItemsPerPage": must be a whole number`
    )
    // The parser's position in the field's documentation, as the file's line and column: the `)`
    // where it expected `:`.
    const column = (schema.split('\n')[hidden - 1] ?? '').indexOf('@hidden(now') + 12
    expect(err).toContain(
      `error: contract.prisma:${hidden}:${column}: Model "Author", field "email", @hidden: cannot be read: expected ':' after 'now'\n`
    )
    expect(err).toContain('prisma-hydra wrote nothing: out was not created.')
    expect(existsSync(path.join(folder, 'out'))).toBe(false)
  })

  it('refuses a contract emitted before the schema changed', async () => {
    const schema = (await readFile(contractFile, 'utf8')).replace(
      '  pages       Int\n',
      '  pages       Int\n  subtitle    String?\n'
    )
    const { code, err } = await generate(schema)
    expect(code).toBe(1)
    expect(err).toContain('does not match contract.prisma; run `prisma contract emit` again')
    expect(err).toContain(
      `field "Book.subtitle" (contract.prisma:${lineOf(schema, 'subtitle')}) is not in the contract`
    )
  })

  it('refuses a contract of another database', async () => {
    const contract = JSON.parse(await readFile(contractJson, 'utf8'))
    const other = path.join(folder, 'contract.json')
    await writeFile(other, JSON.stringify({ ...contract, target: 'mysql' }))
    const { code, err } = await generate(await readFile(contractFile, 'utf8'), other)
    expect(code).toBe(1)
    expect(err).toContain(
      'its target is "sql/mysql"; on Prisma 8 the generator serves PostgreSQL contracts ("sql/postgres") only'
    )
  })

  it('names the parser package and its version when the project has none', async () => {
    await expect(loadPslSyntax([folder])).rejects.toThrow(
      /@prisma\/orm-framework\/psl-parser\/syntax, which is not installed .*npm install --save-exact @prisma\/orm-framework@.*8\.0\.0-rc\.13/
    )
  })
})
