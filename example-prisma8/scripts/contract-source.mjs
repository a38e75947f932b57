#!/usr/bin/env node
// Writes prisma/contract.prisma, the example's schema for Prisma 8, from the repository's
// prisma/schema.prisma: the same models, enums and /// annotations, without the generator and
// datasource blocks (Prisma 8 refuses them: PSL_UNSUPPORTED_TOP_LEVEL_BLOCK; its datasource is
// prisma.config.ts, and it runs no generators), under the `// use prisma-8` line Prisma 8 reads.
//
//   node scripts/contract-source.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const BLOCK = /^(?:generator|datasource)[ \t]+\w+[ \t]*\{[^}]*\}[ \t]*\r?\n(?:[ \t]*\r?\n)*/gm

/** The Prisma 8 schema of the Prisma 7 schema `text`. */
export function contractSource(text) {
  return `// use prisma-8\n${text.replace(BLOCK, '')}`
}

export const schemaFile = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url))
export const contractFile = fileURLToPath(new URL('../prisma/contract.prisma', import.meta.url))

/** Writes contractFile from schemaFile (its folder made first: it is not in the repository). */
export function writeContractSource() {
  mkdirSync(path.dirname(contractFile), { recursive: true })
  writeFileSync(contractFile, contractSource(readFileSync(schemaFile, 'utf8')))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeContractSource()
