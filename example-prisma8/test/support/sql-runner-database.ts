/**
 * The database of sql-runner.test.ts, made before its files run: the contract of
 * test/sql-runner/contract.prisma emitted by `prisma contract emit` (into its .generated/), a
 * database of its own created again, its tables made by `prisma db init`, and a native enum type,
 * as Prisma 7 stores an enum (Prisma 8 stores one as text, with a CHECK of its values).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { DATABASE, DATABASE_URL } from './database-urls.js'
import { freshDatabase } from './fresh-database.js'

const workspace = fileURLToPath(new URL('../../', import.meta.url))

/** Runs the workspace's Prisma 8 CLI on the test's contract. */
function prisma(...args: string[]): void {
  const run = spawnSync(
    process.execPath,
    [
      'scripts/node22.mjs',
      'node_modules/.bin/prisma',
      ...args,
      '--config',
      'test/sql-runner/prisma.config.ts',
    ],
    { cwd: workspace, env: { ...process.env, DATABASE_URL }, encoding: 'utf8' }
  )
  if (run.status !== 0)
    throw new Error(`prisma ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`)
}

export default async function setup(): Promise<void> {
  prisma('contract', 'emit')
  await freshDatabase(DATABASE)
  prisma('db', 'init')
  const database = new pg.Client({ connectionString: DATABASE_URL })
  await database.connect()
  try {
    await database.query(`CREATE TYPE "Mood" AS ENUM ('happy', 'sad')`)
  } finally {
    await database.end()
  }
}
