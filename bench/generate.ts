/**
 * `prisma generate` for bench/schema.prisma, once per database the benchmarks run on (a Prisma
 * client serves one provider only): the schema as written (SQLite) into bench/.generated/, and a
 * copy of it for PostgreSQL (@prisma-hydra/prisma-offline/schema-copy) into
 * bench/.generated-postgresql/ (the copy, `prisma/` and `hydra/`). Generating needs no database
 * server. Run by `npm run bench:prepare`, through the offline Prisma CLI wrapper.
 */
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'

const run = promisify(execFile)
const at = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const SCHEMA = at('./schema.prisma')
const SQLITE = at('./.generated/')
const POSTGRESQL = at('./.generated-postgresql/')
const CLI = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')

/** Every generator's output moves from below bench/.generated/ to the same place below `to`. */
function relocate(file: string, to: string): string {
  const relative = path.relative(SQLITE, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`Generator output ${file} is not below ${SQLITE}`)
  }
  return path.join(to, relative)
}

async function generate(schema: string): Promise<void> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'generate', '--schema', schema])
    process.stdout.write(`${stdout}${stderr}`)
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    process.stderr.write(`${stdout}${stderr}`)
    throw new Error(`prisma generate --schema ${schema} failed`, { cause: error })
  }
}

const copy = await writeSchemaCopy({
  schemaPath: SCHEMA,
  provider: 'postgresql',
  dir: POSTGRESQL,
  output: (file) => relocate(file, POSTGRESQL),
})
// The CLI spends most of its time starting up: both generations run side by side.
await Promise.all([generate(SCHEMA), generate(copy)])
