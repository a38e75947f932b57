/**
 * `prisma-hydra generate --watch` generates again when the schema changes: a changed annotation
 * is in the files within moments, an annotation error is reported at its line and leaves the last
 * files in place, and the watch ends when asked.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runContractCommand } from '../../generator/src/contract-command.js'
import { contractFile, contractJson } from './prisma8-emit.js'

let folder: string

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'hydra-prisma8-watch-'))
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** Resolves once `lines` has more than `count` lines matching `pattern`; fails after 10 s. */
async function until(lines: string[], pattern: RegExp, count: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while (lines.filter((line) => pattern.test(line)).length <= count) {
    if (Date.now() > deadline)
      throw new Error(`no new line matching ${pattern}:\n${lines.join('\n')}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

it('generates again after each change of the schema', async () => {
  const schemaFile = path.join(folder, 'contract.prisma')
  const bookFile = path.join(folder, 'out', 'book.ts')
  const schema = await readFile(contractFile, 'utf8')
  await writeFile(schemaFile, schema)
  const lines: string[] = []
  const output = {
    out: (line: string) => lines.push(line),
    err: (line: string) => lines.push(line),
  }
  const stop = new AbortController()
  const args = ['--contract', contractJson, '--schema', 'contract.prisma', '--output', 'out']
  const running = runContractCommand([...args, '--watch'], folder, output, stop.signal)
  const wrote = /^prisma-hydra wrote \d+ files to out$/
  await until(lines, wrote, 0)
  expect(await readFile(bookFile, 'utf8')).toContain('maximumItemsPerPage: 50,')

  await writeFile(
    schemaFile,
    schema.replace('maximumItemsPerPage: 50)', 'maximumItemsPerPage: 40)')
  )
  await until(lines, wrote, 1)
  expect(await readFile(bookFile, 'utf8')).toContain('maximumItemsPerPage: 40,')

  const broken = schema.replace('maximumItemsPerPage: 50)', 'maximumItemsPerPage: 0)')
  await writeFile(schemaFile, broken)
  await until(lines, /wrote nothing/, 0)
  const line = broken.split('\n').findIndex((text) => text.includes('maximumItemsPerPage: 0)')) + 1
  expect(lines.join('\n')).toContain(`error: contract.prisma:${line}: Model "Book", @pagination`)
  expect(await readFile(bookFile, 'utf8')).toContain('maximumItemsPerPage: 40,')

  stop.abort()
  expect(await running).toBe(0)
})
