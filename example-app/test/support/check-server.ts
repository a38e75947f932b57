/**
 * Global setup of the database test projects: stops the run at once, with the reason, when the
 * configured server does not answer (instead of a timeout in every test file).
 */
import { checkServer } from '@prisma-hydra/prisma-offline/scratch-database'
import { SERVERS, serverUrl } from './databases.js'

export async function checkConfiguredServer(key: keyof typeof SERVERS): Promise<void> {
  const url = serverUrl(key)
  if (!url) return
  try {
    await checkServer(url)
  } catch (error) {
    throw new Error(
      `${SERVERS[key].name} (${SERVERS[key].variable}): ${error instanceof Error ? error.message : error}`,
      { cause: error }
    )
  }
}
