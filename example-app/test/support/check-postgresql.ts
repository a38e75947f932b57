/**
 * Global setup of the `postgresql` test project: stops the run at once, with the reason, when the
 * configured server does not answer (instead of a timeout in every test file).
 */
import { checkServer } from '@prisma-hydra/prisma-offline/scratch-database'
import { SERVERS, serverUrl } from './databases.js'

export default async function checkPostgresql(): Promise<void> {
  const url = serverUrl('postgresql')
  if (!url) return
  try {
    await checkServer(url)
  } catch (error) {
    throw new Error(
      `PostgreSQL (${SERVERS.postgresql.variable}): ${error instanceof Error ? error.message : error}`,
      { cause: error }
    )
  }
}
