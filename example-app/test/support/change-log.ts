/**
 * The change log of test/fixtures/changes (docs/syncing.md): the generated `changes.sql` of the
 * test's database, applied statement by statement as a migration would run it.
 */
import { readFile } from 'node:fs/promises'
import { TEST_DATABASE } from './harness.js'

/** The generated `changes.sql` of the fixture for the test's database. */
export function changeLogFile(): URL {
  const folder = TEST_DATABASE === 'sqlite' ? '.generated' : `.generated-${TEST_DATABASE}`
  return new URL(`../${folder}/changes/hydra/changes.sql`, import.meta.url)
}

/** What applying the log uses of a Prisma client. */
interface Runner {
  $executeRawUnsafe(query: string): PromiseLike<unknown>
}

/**
 * Runs each statement of `changes.sql` (they are separated by blank lines; the file's header is
 * comments only).
 */
export async function applyChangeLog(runner: Runner): Promise<number> {
  const text = await readFile(changeLogFile(), 'utf8')
  const statements = text
    .split(/\n\n+/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.split('\n').some((line) => !line.startsWith('--')))
  for (const statement of statements) await runner.$executeRawUnsafe(statement)
  return statements.length
}
