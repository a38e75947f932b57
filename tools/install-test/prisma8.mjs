// docs/prisma-8.md followed in a project of its own, on a database of its own on the PostgreSQL
// server of DATABASE_URL_POSTGRES, on Node 22 (Prisma 8's floor; the one
// example-prisma8/scripts/node22.mjs installs): its blocks written and run, the contract emitted,
// the tables made, the routes generated and typechecked, then the server started with its
// `start` step and asked over HTTP.

import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { createScratchDatabase } from '../prisma-offline/src/scratch-database.mjs'
import { root, userEnvironment } from './commands.mjs'
import { commands, walkthroughBlocks } from './doc-blocks.mjs'
import { startServer } from './server.mjs'
import { phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

const label = 'Prisma 8: '
const blocks = walkthroughBlocks(
  path.join(root, 'docs/prisma-8.md'),
  ['install', 'more-packages', 'generate', 'typecheck', 'start'],
  ['prisma.config.ts', 'src/prisma/contract.prisma', 'src/db.ts', 'src/main.ts', 'tsconfig.json']
)

/** The folder of Node 22's binary, installed on first use by the Prisma 8 workspace's script. */
function node22Folder() {
  const script = path.join(root, 'example-prisma8/scripts/node22.mjs')
  const run = spawnSync(process.execPath, [script, 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`Node 22 for Prisma 8: ${run.stderr}`)
  return path.dirname(run.stdout.trim())
}

/** Expects `path` of `base` to answer `status`, as a JSON document; answers the document. */
async function expectAnswer(base, request, status) {
  const response = await fetch(`${base}${request}`, { headers: { Accept: 'application/ld+json' } })
  const text = await response.text()
  if (response.status !== status)
    throw new Error(`${request}: ${response.status} where ${status} was expected: ${text}`)
  return JSON.parse(text)
}

/**
 * Follows the page in `project` (a new folder) with the packed `tarballs`, on a new database of
 * the server of `serverUrl`, dropped at the end unless `keep`.
 */
export async function walkPrisma8(project, tarballs, serverUrl, keep) {
  mkdirSync(project)
  phase(`${label}Node 22 and a PostgreSQL database`)
  const node22 = node22Folder()
  const database = await createScratchDatabase(serverUrl, { prefix: 'prisma_hydra_install_p8' })
  console.log(`database ${database.name}`)
  const env = {
    DATABASE_URL: database.url,
    PATH: `${node22}${path.delimiter}${userEnvironment().PATH}`,
  }
  try {
    const [start] = await followBlocks(blocks, project, { tarballs, envFor: () => env, label })
    phase(`${label}step start`)
    const server = await startServer(commands(start.body)[0], project, env)
    try {
      phase(`${label}checks over HTTP`)
      const books = await expectAnswer(server.base, '/books', 200)
      if (books['hydra:totalItems'] !== 0 || books['@type'] !== 'hydra:Collection')
        throw new Error(`/books: not an empty collection: ${JSON.stringify(books)}`)
      const problem = await expectAnswer(server.base, '/books?page=0', 400)
      if (problem.status !== 400) throw new Error(`/books?page=0: ${JSON.stringify(problem)}`)
      await expectAnswer(server.base, '/docs.jsonld', 200)
    } finally {
      server.stop()
    }
  } finally {
    if (keep) console.log(`database kept: DATABASE_URL=${database.url}`)
    else await database.drop()
  }
}
